package io.trigrep.indexer;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The indexer writes the shard format the backends read: it depends on the format and the wire
 * types, never on the servers, and its packages form no cycle.
 */
@AnalyzeClasses(packages = "io.trigrep.indexer", importOptions = ImportOption.DoNotIncludeTests.class)
class IndexerLayeringTest {
    @ArchTest
    static final ArchRule knowsNoServer = noClasses()
            .should()
            .dependOnClassesThat()
            .resideInAnyPackage("io.trigrep.backend..", "io.trigrep.frontend..");

    @ArchTest
    static final ArchRule packagesFormNoCycle =
            slices().matching("io.trigrep.indexer.(*)..").should().beFreeOfCycles();
}
