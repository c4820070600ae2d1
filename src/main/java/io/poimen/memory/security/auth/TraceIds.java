package io.poimen.memory.security.auth;

import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Trace ids of requests: the trace id of a W3C {@code traceparent} header ({@code 00-<32 hex>-<16 hex>-<2 hex>})
 * when valid, otherwise a new random 32-hex id. Returned as {@code X-Trace-Id} and written to the audit log.
 */
public final class TraceIds {
    public static final String RESPONSE_HEADER = "X-Trace-Id";
    public static final String ATTRIBUTE = "io.poimen.memory.traceId";
    private static final Pattern TRACEPARENT = Pattern.compile(
            "^[0-9a-f]{2}-([0-9a-f]{32})-[0-9a-f]{16}-[0-9a-f]{2}$");
    // one generator per thread: the default SecureRandom (NativePRNG) reads /dev/urandom under one global lock
    // on every call, which request threads queued on under load
    private static final ThreadLocal<SecureRandom> RANDOM = ThreadLocal.withInitial(TraceIds::newRandom);

    private TraceIds() {
    }

    public static String fromTraceparent(String traceparent) {
        if (traceparent != null) {
            Matcher m = TRACEPARENT.matcher(traceparent.trim());
            if (m.matches() && !m.group(1).chars().allMatch(c -> c == '0') && !traceparent.startsWith("ff")) {
                return m.group(1);
            }
        }
        return generate();
    }

    public static String generate() {
        byte[] b = new byte[16];
        RANDOM.get().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    private static SecureRandom newRandom() {
        try {
            return SecureRandom.getInstance("DRBG");
        } catch (NoSuchAlgorithmException e) {
            return new SecureRandom();
        }
    }
}
