package io.opensdrs.cli.model;

import java.util.List;

/** The model names the CLI tests exercise; grows as models are registered. */
final class ModelNames {
    static final List<String> ALL = List.of("pesto", "basil", "romano", "queueing");

    private ModelNames() {
    }
}
