package io.trigrep.query;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;

/**
 * The query language is what backends and the frontend share: it uses the JDK, RE2J and the
 * indexer's file-type table, nothing of either server, and the planner knows nothing of the
 * language above it.
 */
@AnalyzeClasses(packages = "io.trigrep.query", importOptions = ImportOption.DoNotIncludeTests.class)
class QueryLayeringTest {
    @ArchTest
    static final ArchRule usesOnlyTheJdkRe2jAndFileTypes = classes()
            .should()
            .onlyDependOnClassesThat()
            .resideInAnyPackage("java..", "io.trigrep.query..", "io.trigrep.re2j..", "io.trigrep.indexer.filetype..");

    @ArchTest
    static final ArchRule plannerKnowsNoLanguage = noClasses()
            .that()
            .resideInAPackage("io.trigrep.query.plan..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.trigrep.query");
}
