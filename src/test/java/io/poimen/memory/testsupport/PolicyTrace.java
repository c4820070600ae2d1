package io.poimen.memory.testsupport;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.micrometer.core.instrument.MeterRegistry;
import io.poimen.memory.config.LastGoodYamlFiles;
import io.poimen.memory.security.policy.PolicyStore;
import org.slf4j.LoggerFactory;

/**
 * What requests may leave in the policy files' reporting while it is open: ERROR lines of {@link LastGoodYamlFiles}
 * and moves of the gauge {@code poimen_policy_rejected{file="_access.yaml"}}. Probes must leave neither.
 */
public final class PolicyTrace implements AutoCloseable {
    private final MeterRegistry meters;
    private final double gauge;
    private final Logger log = (Logger) LoggerFactory.getLogger(LastGoodYamlFiles.class);
    private final ListAppender<ILoggingEvent> logged = new ListAppender<>();

    private PolicyTrace(MeterRegistry meters) {
        this.meters = meters;
        this.gauge = rejected(meters);
        logged.start();
        log.addAppender(logged);
    }

    public static PolicyTrace start(MeterRegistry meters) {
        return new PolicyTrace(meters);
    }

    static double rejected(MeterRegistry meters) {
        return meters.get("poimen.policy.rejected").tag("file", PolicyStore.POLICY_FILE).gauge().value();
    }

    /** Nothing was logged at ERROR and the gauge did not move since {@link #start}. */
    public void assertNothingLeft() {
        close();
        assertThat(logged.list).as("no request logs a policy error").noneMatch(e -> e.getLevel() == Level.ERROR);
        assertThat(rejected(meters)).as("no request moves poimen_policy_rejected").isEqualTo(gauge);
    }

    @Override
    public void close() {
        log.detachAppender(logged);
    }
}
