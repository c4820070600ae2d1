package io.poimen.memory;

import static com.tngtech.archunit.base.DescribedPredicate.not;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAPackage;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.resideInAnyPackage;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.assertj.core.api.Assertions.assertThat;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import java.util.function.UnaryOperator;
import io.poimen.memory.cli.PoimenCli;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.config.BeanDefinition;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.ClassPathScanningCandidateComponentProvider;

/**
 * The package dependency rules of docs/architecture.md ("Package dependencies"), checked on the production classes:
 * no package cycles, {@code api} and {@code config} at the bottom, {@code web}, {@code mcp} and {@code cli} at the
 * top, the root package (Application and the store wiring) used by {@code cli} only; the benchmarks and fault hooks
 * ({@code io.poimen.bench}) outside the server: only the jar's entry point lists their command.
 */
class ArchitectureTest {
    private static final String ROOT = "io.poimen.memory";
    private static final String BENCH = "io.poimen.bench";
    private static final JavaClasses HUB = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages(ROOT);

    @Test
    void noPackageTakesPartInACycle() {
        slices().assignedFrom(slicesBy("package", pkg -> pkg)).should().beFreeOfCycles().check(HUB);
    }

    /** Feature packages (first level below the root, subpackages included) form no cycle either. */
    @Test
    void featurePackagesTakePartInNoCycle() {
        slices().assignedFrom(slicesBy("feature package",
                        pkg -> pkg.equals(ROOT) ? pkg : ROOT + "." + pkg.substring(ROOT.length() + 1).split("\\.")[0]))
                .should().beFreeOfCycles().check(HUB);
    }

    /** The root package is a slice of its own: a pattern such as {@code ROOT + ".(**)"} would leave it out. */
    private static SliceAssignment slicesBy(String what, UnaryOperator<String> sliceOf) {
        return new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String pkg = javaClass.getPackageName();
                return pkg.equals(ROOT) || pkg.startsWith(ROOT + ".") ? SliceIdentifier.of(sliceOf.apply(pkg))
                        : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "each " + what + " of " + ROOT + ", the root package included";
            }
        };
    }

    @Test
    void apiIsTheBottom() {
        classes().that().resideInAPackage(ROOT + ".api..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(ROOT + "..")).or(resideInAPackage(ROOT + ".api..")))
                .check(HUB);
    }

    @Test
    void configHoldsPropertiesAndYamlHelpersOnly() {
        classes().that().resideInAPackage(ROOT + ".config..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(ROOT + ".."))
                        .or(resideInAnyPackage(ROOT + ".api..", ROOT + ".config..")))
                .check(HUB);
    }

    @Test
    void opsMetersSitBelowTheFeaturesTheyMeasure() {
        classes().that().resideInAPackage(ROOT + ".ops..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(ROOT + ".."))
                        .or(resideInAnyPackage(ROOT + ".api..", ROOT + ".config..", ROOT + ".ops..")))
                .check(HUB);
    }

    @Test
    void nothingBelowImportsWebMcpOrCli() {
        noClasses().that().resideOutsideOfPackages(ROOT, ROOT + ".web..", ROOT + ".mcp..", ROOT + ".cli..")
                .should().dependOnClassesThat().resideInAnyPackage(ROOT + ".web..", ROOT + ".mcp..", ROOT + ".cli..")
                .check(HUB);
    }

    @Test
    void onlyCliUsesTheRootPackage() {
        noClasses().that().resideOutsideOfPackages(ROOT, ROOT + ".cli..")
                .should().dependOnClassesThat().resideInAPackage(ROOT)
                .check(HUB);
    }

    private static final String SECURITY = ROOT + ".security";

    /** Policies and decisions are pure: no web filter, token, audit or door class behind them. */
    @Test
    void securityPolicyDependsOnNoOtherPartOfSecurity() {
        classes().that().resideInAPackage(SECURITY + ".policy..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(SECURITY + ".."))
                        .or(resideInAPackage(SECURITY + ".policy..")))
                .check(HUB);
    }

    /** The audit log records decisions (policy types) and knows nothing of how callers are authenticated. */
    @Test
    void securityAuditDependsOnPoliciesOnly() {
        classes().that().resideInAPackage(SECURITY + ".audit..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(SECURITY + ".."))
                        .or(resideInAnyPackage(SECURITY + ".audit..", SECURITY + ".policy..")))
                .check(HUB);
    }

    /** Authentication finds out who calls; it decides and audits nothing. */
    @Test
    void securityAuthDependsOnPoliciesOnly() {
        classes().that().resideInAPackage(SECURITY + ".auth..")
                .should().onlyDependOnClassesThat(not(resideInAPackage(SECURITY + ".."))
                        .or(resideInAnyPackage(SECURITY + ".auth..", SECURITY + ".policy..")))
                .check(HUB);
    }

    /**
     * Every surface outside {@code security} asks the door ({@code security.Access}) and uses only what it returns
     * and what names a request: the per-request reads and the search scope it hands out, the caller and how a bean
     * finds it, the decision types, path safety. Allowed besides, for what is no access decision: the policy files'
     * health and reload and GRC's self-approval setting ({@code PolicyStore}, {@code PolicyDefaults},
     * {@code RolePolicy}), the trace-id filter's constants and the retention of
     * audit rows ({@code AuditQuery}, {@code ArrayColumnRowMapperFactory}). The engine, the audited access, the modes'
     * checks and the audit log are reached through the door only.
     */
    @Test
    void surfacesOutsideSecurityGoThroughTheDoor() {
        List<String> allowed = List.of("Access", "ReadAccess", "ReadableScope",
                "policy.Caller", "policy.Action", "policy.AccessDecision", "policy.VaultResource",
                "policy.VaultPathGuard", "policy.PathMentions", "policy.PolicyStore", "policy.PolicyDefaults",
                "policy.RolePolicy",
                "auth.CallerResolver", "auth.ExchangeSecurity", "auth.CallerFilter", "auth.TraceIds",
                "auth.TraceIdFilter", "audit.AuditQuery", "audit.ArrayColumnRowMapperFactory");
        noClasses().that().resideOutsideOfPackage(SECURITY + "..")
                .should().dependOnClassesThat(resideInAPackage(SECURITY + "..").and(
                        DescribedPredicate.describe("not the door or a type it returns",
                                (JavaClass c) -> !allowed.contains(c.getName().substring(SECURITY.length() + 1)
                                        .replaceAll("\\$.*", "")))))
                .check(HUB);
    }

    /** The server's code reaches no benchmark or fault hook: only the CLI's entry point names the bench command. */
    @Test
    void noServerClassDependsOnTheBenchPackage() {
        noClasses().that().resideInAPackage(ROOT + "..").and().doNotHaveFullyQualifiedName(PoimenCli.class.getName())
                .should().dependOnClassesThat().resideInAPackage(BENCH + "..")
                .check(HUB);
    }

    /**
     * Spring loads the server's classes from three places: the component scan under {@link Application}'s package,
     * what a loaded class imports or returns from a bean method (a dependency, checked above) and the factories
     * files of the jar. None of them reaches the bench package.
     */
    @Test
    void theServersSpringContextCannotReachTheBenchPackage() throws Exception {
        SpringBootApplication app = Application.class.getAnnotation(SpringBootApplication.class);
        assertThat(app.scanBasePackages()).isEmpty();
        assertThat(app.scanBasePackageClasses()).isEmpty();
        assertThat(BENCH + ".").doesNotStartWith(Application.class.getPackageName() + ".");
        List<String> bench = new ClassPathScanningCandidateComponentProvider(true)
                .findCandidateComponents(BENCH).stream().map(BeanDefinition::getBeanClassName).toList();
        assertThat(bench).as("bench classes a scan of their package would make beans").isEmpty();
        Path resources = Path.of("src/main/resources/META-INF");
        try (Stream<Path> files = Files.walk(resources)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                assertThat(Files.readString(file)).as(file.toString()).doesNotContain(BENCH);
            }
        }
    }

    private static final String RETRIEVAL = ROOT + ".retrieval";

    /**
     * The query route's steps and the values they pass on (docs/architecture.md, "The query path"): no step reads the
     * Camel route model (only {@code RouteBranches} does, once per route load) and the values are records.
     */
    @Test
    void queryStepsAndValuesReadNoCamelModel() {
        classes().that().resideInAPackage(RETRIEVAL + "..").and().haveSimpleNameEndingWith("Step")
                .or().haveSimpleNameEndingWith("Query").and().resideInAPackage(RETRIEVAL + "..")
                .should().onlyDependOnClassesThat(not(resideInAPackage("org.apache.camel.model..")))
                .check(HUB);
        // the *Config classes build the Java DSL routes the code owns (timers)
        noClasses().that().resideInAPackage(RETRIEVAL + "..").and().doNotHaveSimpleName("RouteBranches")
                .and().haveNameNotMatching(".*Config(\\$.*)?")
                .should().dependOnClassesThat().resideInAPackage("org.apache.camel.model..")
                .check(HUB);
        classes().that().resideInAPackage(RETRIEVAL).and().haveSimpleNameEndingWith("Query")
                .and().doNotHaveSimpleName("QueryRequest").should().beRecords().check(HUB);
    }

    /** No shared mutable state on the query path: no public field that is not final in retrieval. */
    @Test
    void retrievalHasNoPublicMutableField() {
        com.tngtech.archunit.lang.syntax.ArchRuleDefinition.fields().that().areDeclaredInClassesThat()
                .resideInAPackage(RETRIEVAL + "..").and().arePublic().should().beFinal().check(HUB);
    }

    /** The session step takes what it needs from the value: it calls back into no other step of the route. */
    @Test
    void theSessionStepCallsNoOtherStep() {
        noClasses().that().resideInAPackage(RETRIEVAL + ".session..")
                .should().dependOnClassesThat(resideInAPackage(RETRIEVAL)
                        .and(com.tngtech.archunit.core.domain.JavaClass.Predicates.simpleNameEndingWith("Step")))
                .check(HUB);
    }
}
