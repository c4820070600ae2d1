package io.poimen.memory.config;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Turns a {@link StartRefusedException} anywhere in a failed start's causes into Spring Boot's "APPLICATION FAILED
 * TO START" report (description and action), which is logged instead of the exception's stack trace.
 */
public class StartRefusedFailureAnalyzer extends AbstractFailureAnalyzer<StartRefusedException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, StartRefusedException cause) {
        return new FailureAnalysis(cause.getMessage(), cause.action(), null);
    }
}
