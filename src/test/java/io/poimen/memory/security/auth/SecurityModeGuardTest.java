package io.poimen.memory.security.auth;

import io.poimen.memory.config.PropertiesConfig;
import io.poimen.memory.config.SecuritySettings;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

class SecurityModeGuardTest {
    static SecuritySettings settings(String mode, String issuerUri, String jwks, String issuer) {
        return new SecuritySettings(mode, issuerUri, jwks, issuer, "poimen-memory", Duration.ofSeconds(30),
                Duration.ofMinutes(5), Duration.ofSeconds(30));
    }

    @ParameterizedTest
    @ValueSource(strings = {"127.0.0.1", "::1", "localhost", "127.0.0.2"})
    void noAuthStartsOnLoopback(String address) {
        assertThatCode(() -> SecurityModeGuard.check(settings("none", null, null, null), address))
                .doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"0.0.0.0", "::", "192.168.1.10", "", "no-such-host.invalid"})
    void noAuthRefusesAnyOtherAddress(String address) {
        assertThatThrownBy(() -> SecurityModeGuard.check(settings("none", null, null, null), address))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("loopback");
    }

    @Test
    void oidcNeedsAnIssuer() {
        assertThatThrownBy(() -> SecurityModeGuard.check(settings("oidc", null, null, null), "0.0.0.0"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("issuer");
        assertThatThrownBy(() -> SecurityModeGuard.check(settings("oidc", null, "http://idp/jwks", null), "0.0.0.0"))
                .isInstanceOf(IllegalStateException.class);
        assertThatCode(() -> SecurityModeGuard.check(settings("oidc", "http://idp/", null, null), "0.0.0.0"))
                .doesNotThrowAnyException();
        assertThatCode(() -> SecurityModeGuard.check(settings("oidc", null, "http://idp/jwks", "http://idp/"),
                "0.0.0.0")).doesNotThrowAnyException();
        assertThatThrownBy(() -> SecurityModeGuard.check(settings("basic", null, null, null), "127.0.0.1"))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("none or oidc");
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "0.0.0.0", "192.168.1.10"})
    void noAuthRefusesAManagementPortOffLoopback(String managementAddress) {
        assertThatThrownBy(() -> SecurityModeGuard.check(settings("none", null, null, null), "127.0.0.1", "8080",
                "9090", managementAddress))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("management.server.port=9090");
    }

    @Test
    void noAuthAcceptsAManagementPortOnLoopbackOrTheServerPort() {
        SecuritySettings none = settings("none", null, null, null);
        assertThatCode(() -> SecurityModeGuard.check(none, "127.0.0.1", "8080", "9090", "127.0.0.1"))
                .doesNotThrowAnyException();
        assertThatCode(() -> SecurityModeGuard.check(none, "127.0.0.1", "8080", "8080", ""))
                .doesNotThrowAnyException();
        assertThatCode(() -> SecurityModeGuard.check(none, "127.0.0.1", "8080", "-1", ""))
                .doesNotThrowAnyException();
        assertThatCode(() -> SecurityModeGuard.check(none, "127.0.0.1", "8080", "", ""))
                .doesNotThrowAnyException();
        // oidc mode may publish metrics on every interface
        assertThatCode(() -> SecurityModeGuard.check(settings("oidc", "http://idp/", null, null), "0.0.0.0", "8080",
                "9090", "")).doesNotThrowAnyException();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   "})
    void aBlankModeIsRefusedNamingTheKey(String mode) {
        assertThatThrownBy(() -> SecurityModeGuard.check(settings(mode, null, null, null), "127.0.0.1"))
                .isInstanceOf(IllegalStateException.class).hasMessageStartingWith("poimen.security.mode is set but blank");
    }

    /**
     * As the hub binds it: {@code poimen.security.mode=} (or POIMEN_SECURITY_MODE="") gives an empty mode, not the
     * default none, and the guard SecurityConfig runs first at start-up refuses it.
     */
    @ParameterizedTest
    @ValueSource(strings = {"poimen.security.mode=", "poimen.security.mode=  "})
    void aBlankModeAsBoundRefusesStartUp(String property) {
        new ApplicationContextRunner()
                .withUserConfiguration(PropertiesConfig.class)
                .withPropertyValues(property)
                .run(context -> {
                    SecuritySettings bound = context.getBean(SecuritySettings.class);
                    assertThat(bound.mode()).isEmpty();
                    assertThatThrownBy(() -> SecurityModeGuard.check(bound, "127.0.0.1", "8080", "", ""))
                            .isInstanceOf(IllegalStateException.class)
                            .hasMessageContaining("poimen.security.mode is set but blank")
                            .hasMessageContaining("POIMEN_SECURITY_MODE");
                });
        // without the key: the default none
        new ApplicationContextRunner().withUserConfiguration(PropertiesConfig.class)
                .run(context -> assertThat(context.getBean(SecuritySettings.class).mode()).isEqualTo("none"));
    }
}
