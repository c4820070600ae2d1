package io.poimen.memory.grc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class WebhookSignatureTest {
    @Test
    void matchesAKnownHmacSha256() {
        // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?"
        byte[] body = "what do ya want for nothing?".getBytes(StandardCharsets.UTF_8);
        String expected = "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843";
        assertThat(WebhookSignature.sign("Jefe", body)).isEqualTo(expected);
        assertThat(WebhookSignature.verify("Jefe", body, expected)).isTrue();
        assertThat(WebhookSignature.verify("Jefe", body, expected.toUpperCase())).isTrue();
        assertThat(WebhookSignature.verify("Jefe", body, "sha256=" + expected)).isTrue();
    }

    @Test
    void rejectsOtherBodiesSecretsAndMissingParts() {
        byte[] body = "{\"ref\":\"refs/heads/main\"}".getBytes(StandardCharsets.UTF_8);
        String good = WebhookSignature.sign("s", body);
        assertThat(WebhookSignature.verify("s", "{\"ref\":\"refs/heads/dev\"}".getBytes(), good)).isFalse();
        assertThat(WebhookSignature.verify("t", body, good)).isFalse();
        assertThat(WebhookSignature.verify("s", body, good.substring(1))).isFalse();
        assertThat(WebhookSignature.verify("s", body, null)).isFalse();
        assertThat(WebhookSignature.verify("", body, good)).isFalse();
    }
}
