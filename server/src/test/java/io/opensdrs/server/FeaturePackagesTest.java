package io.opensdrs.server;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

/**
 * The server is packaged by feature: each first-level package under {@code io.opensdrs.server}
 * (with its subpackages, so {@code stats.vcenter} belongs to {@code stats}) is one feature, and
 * features depend on one another in one direction only. A cycle means two features can be neither
 * read nor tested apart; the failure names every class-level dependency that closes one. The classes
 * of {@code io.opensdrs.server} itself (the application, its properties) belong to no feature and may
 * be used by all, so they use none: a cycle through them would go unseen by the slices.
 */
class FeaturePackagesTest {

    static final JavaClasses SERVER = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.opensdrs.server");

    @Test
    void featuresAreFreeOfCycles() {
        slices().matching("io.opensdrs.server.(*)..")
                .as("the server's feature packages")
                .should().beFreeOfCycles()
                .check(SERVER);
    }

    @Test
    void theApplicationPackageDependsOnNoFeature() {
        noClasses().that().resideInAPackage("io.opensdrs.server")
                .should().dependOnClassesThat().resideInAPackage("io.opensdrs.server.*..")
                .as("classes of io.opensdrs.server itself should depend on no feature package")
                .check(SERVER);
    }
}
