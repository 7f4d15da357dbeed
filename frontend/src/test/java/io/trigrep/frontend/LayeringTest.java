package io.trigrep.frontend;

import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideOutsideOfPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.core.importer.Location;
import com.tngtech.archunit.junit.AnalyzeClasses;
import com.tngtech.archunit.junit.ArchTest;
import com.tngtech.archunit.lang.ArchRule;
import io.netty.channel.ChannelHandler;
import java.nio.channels.FileChannel;

/**
 * The layering of every module, checked where all of them are on the class path: the vendored
 * regex engine stands alone, the frontend uses no backend class, no module's packages form a
 * cycle, and code that runs on an event loop (HTTP and every Netty handler) makes none of the
 * blocking calls that are cheap to spot.
 */
@AnalyzeClasses(
        packages = "io.trigrep",
        importOptions = {ImportOption.DoNotIncludeTests.class, LayeringTest.NoTestJars.class})
class LayeringTest {
    /** Other modules' test classes come as test jars when the reactor packaged them. */
    static final class NoTestJars implements ImportOption {
        @Override
        public boolean includes(Location location) {
            return !location.contains("-tests.jar");
        }
    }

    /** re2j is a vendored copy: it must stay replaceable by the upstream library. */
    @ArchTest
    static final ArchRule re2jStandsAlone = noClasses()
            .that()
            .resideInAPackage("io.trigrep.re2j..")
            .should()
            .dependOnClassesThat(resideInAPackage("io.trigrep..").and(resideOutsideOfPackage("io.trigrep.re2j..")));

    /** The frontend runs without the backends' server and kernels: it shares the query language and the wire. */
    @ArchTest
    static final ArchRule frontendUsesNoBackendClass = noClasses()
            .that()
            .resideInAPackage("io.trigrep.frontend..")
            .should()
            .dependOnClassesThat()
            .resideInAPackage("io.trigrep.backend..")
            .because("the frontend parses and plans with the query module and talks to backends over proto");

    @ArchTest
    static final ArchRule frontendPackagesFormNoCycle =
            slices().matching("io.trigrep.frontend.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule backendPackagesFormNoCycle =
            slices().matching("io.trigrep.backend.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule indexerPackagesFormNoCycle =
            slices().matching("io.trigrep.indexer.(*)..").should().beFreeOfCycles();

    @ArchTest
    static final ArchRule eventLoopCodeDoesNotBlock = noClasses()
            .that()
            .resideInAPackage("io.trigrep..http..")
            .or()
            .areAssignableTo(ChannelHandler.class)
            .should()
            .callMethod(Thread.class, "sleep", long.class)
            .orShould()
            .callMethod(Thread.class, "sleep", long.class, int.class)
            .orShould()
            .callMethod(FileChannel.class, "force", boolean.class)
            .because("an event loop thread that sleeps or waits for the disk stalls every connection it serves");
}
