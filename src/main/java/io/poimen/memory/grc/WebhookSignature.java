package io.poimen.memory.grc;

import java.nio.charset.StandardCharsets;
import java.security.InvalidKeyException;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/** Forgejo's webhook signature: lower-case hex of HMAC-SHA256(secret, raw body), compared in constant time. */
public final class WebhookSignature {
    private WebhookSignature() {
    }

    public static String sign(String secret, byte[] body) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return HexFormat.of().formatHex(mac.doFinal(body));
        } catch (NoSuchAlgorithmException | InvalidKeyException e) {
            throw new IllegalStateException("HmacSHA256 unavailable", e);
        }
    }

    /** True when {@code signature} (hex, any case, optionally {@code sha256=}-prefixed) signs {@code body}. */
    public static boolean verify(String secret, byte[] body, String signature) {
        if (secret == null || secret.isEmpty() || signature == null) {
            return false;
        }
        String given = signature.trim().toLowerCase(Locale.ROOT);
        if (given.startsWith("sha256=")) {
            given = given.substring("sha256=".length());
        }
        byte[] expected = sign(secret, body).getBytes(StandardCharsets.US_ASCII);
        return MessageDigest.isEqual(expected, given.getBytes(StandardCharsets.US_ASCII));
    }
}
