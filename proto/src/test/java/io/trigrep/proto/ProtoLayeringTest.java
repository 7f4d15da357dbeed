package io.trigrep.proto;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/** The wire format is what backends and frontends share, so it knows neither of them. */
@AnalyzeClasses(packages = "io.trigrep.proto", importOptions = ImportOption.DoNotIncludeTests.class)
class ProtoLayeringTest {
    @ArchTest
    static final ArchRule knowsNoServer = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.trigrep.backend..", "io.trigrep.frontend..");
}
