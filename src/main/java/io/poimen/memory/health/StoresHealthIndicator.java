package io.poimen.memory.health;

import io.poimen.memory.index.LexicalIndex;
import io.poimen.memory.index.VectorIndex;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.LongSupplier;
import org.springframework.boot.actuate.health.Health;
import org.springframework.boot.actuate.health.HealthIndicator;
import org.springframework.boot.actuate.health.Status;
import org.springframework.stereotype.Component;

/**
 * Health of the two search stores ({@code /actuator/health} component {@code stores}): each is asked for its
 * chunk count. Both answer: UP. One fails: {@value #DEGRADED}, because queries still answer from the other
 * branches (the failing one is named in {@code degraded}); both fail: DOWN. The notes database itself is
 * Spring Boot's {@code db} component, which the readiness group includes.
 */
@Component("stores")
public class StoresHealthIndicator implements HealthIndicator {
    public static final String DEGRADED = "DEGRADED";
    private final VectorIndex vectors;
    private final LexicalIndex lexical;

    public StoresHealthIndicator(VectorIndex vectors, LexicalIndex lexical) {
        this.vectors = vectors;
        this.lexical = lexical;
    }

    @Override
    public Health health() {
        Map<String, Object> details = new LinkedHashMap<>();
        boolean vectorUp = probe("vector", vectors.name(), vectors::count, details);
        boolean lexicalUp = probe("lexical", lexical.name(), lexical::count, details);
        Status status = vectorUp && lexicalUp ? Status.UP : vectorUp || lexicalUp ? new Status(DEGRADED) : Status.DOWN;
        return Health.status(status).withDetails(details).build();
    }

    private static boolean probe(String role, String name, LongSupplier count, Map<String, Object> details) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("store", name);
        boolean up;
        try {
            d.put("chunks", count.getAsLong());
            up = true;
        } catch (RuntimeException e) {
            d.put("error", e.getClass().getSimpleName() + ": " + e.getMessage());
            up = false;
        }
        d.put("status", up ? "UP" : "DOWN");
        details.put(role, d);
        return up;
    }
}
