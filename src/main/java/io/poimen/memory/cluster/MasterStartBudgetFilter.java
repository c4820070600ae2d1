package io.poimen.memory.cluster;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.turbo.TurboFilter;
import ch.qos.logback.core.spi.FilterReply;
import org.slf4j.Marker;

/**
 * Drops one false warning of Camel 4.17: camel-master's {@code MasterConsumer} starts the delegated consumer of a
 * {@code master:} route in a background task whose step answers "not done" even after the consumer started, so
 * the task runs out of its 5 s budget and {@code BackgroundTask} warns "The task Leadership does not have more
 * budget to continue running" once per master route, after every start or take-over. The consumer does run.
 * Fixed upstream by CAMEL-24583/CAMEL-24584 (Camel 4.22); this filter matches only that message of that task,
 * so every other task's budget warning still shows. Installed in {@code logback-spring.xml}.
 */
public class MasterStartBudgetFilter extends TurboFilter {
    static final String LOGGER = "org.apache.camel.support.task.BackgroundTask";
    static final String MESSAGE = "The task {} does not have more budget to continue running";
    static final String TASK = "Leadership";

    @Override
    public FilterReply decide(Marker marker, Logger logger, Level level, String format, Object[] params,
                              Throwable t) {
        boolean falseWarning = level == Level.WARN && logger != null && LOGGER.equals(logger.getName())
                && MESSAGE.equals(format) && params != null && params.length == 1 && TASK.equals(params[0]);
        return falseWarning ? FilterReply.DENY : FilterReply.NEUTRAL;
    }
}
