package io.poimen.memory.config;

import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * Settings under {@code poimen.limits.*}: how many requests each caller (subject, and client id when the token
 * names one) may make per minute on each surface, 0 for no limit. Every replica keeps its own buckets of
 * {@code limit / replicas}, so a caller gets at most the limit from all replicas together (docs/operations.md,
 * "Limits per caller").
 *
 * @param queryPerMinute  {@code POST /memory/query}
 * @param mcpPerMinute    requests to {@code /mcp} (each JSON-RPC message, the stream and its end)
 * @param writesPerMinute {@code POST}, {@code PUT}, {@code PATCH}, {@code DELETE} under {@code /memory/} other than
 *                        the query (drafts, agent events, reindex)
 * @param replicas        the hub replicas that share the limits (each allows its share)
 * @param localOperator   also limit the local operator of the no-auth mode (one caller, loopback only)
 */
public record LimitsProperties(@DefaultValue("600") int queryPerMinute, @DefaultValue("1200") int mcpPerMinute,
                               @DefaultValue("300") int writesPerMinute, @DefaultValue("1") int replicas,
                               @DefaultValue("false") boolean localOperator) {

    public LimitsProperties {
        perMinute("query-per-minute", queryPerMinute);
        perMinute("mcp-per-minute", mcpPerMinute);
        perMinute("writes-per-minute", writesPerMinute);
        if (replicas < 1) {
            throw new IllegalArgumentException("poimen.limits.replicas must be the number of hub replicas (at least "
                    + "1) that share the limits; got " + replicas);
        }
    }

    private static void perMinute(String key, int value) {
        if (value < 0) {
            throw new IllegalArgumentException("poimen.limits." + key + " must be a number of requests per minute, "
                    + "0 for no limit; got " + value);
        }
    }
}
