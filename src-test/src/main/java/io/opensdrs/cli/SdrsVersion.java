package io.opensdrs.cli;

import picocli.CommandLine;

/** Version from the jar manifest (the Maven project version), "dev" when run from classes. */
final class SdrsVersion implements CommandLine.IVersionProvider {
    @Override
    public String[] getVersion() {
        String v = SdrsVersion.class.getPackage().getImplementationVersion();
        return new String[] {"sdrs " + (v == null ? "dev" : v)};
    }
}
