package io.opensdrs.model;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ModelRegistryTest {

    @Test
    void holdsTheFourModelsByName() {
        ModelRegistry registry = ModelRegistry.withBuiltInModels();
        assertThat(registry.names()).containsExactly("basil", "pesto", "romano", "queueing");
        for (String name : registry.names()) {
            DatastoreModel m = registry.create(name);
            assertThat(m.name()).isEqualTo(name);
            assertThat(m.isFitted()).isFalse();
        }
        assertThatThrownBy(() -> registry.create("nope")).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("--model");
        assertThatThrownBy(() -> registry.register("pesto", () -> null)).isInstanceOf(IllegalArgumentException.class);
    }
}
