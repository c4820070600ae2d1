package io.poimen.memory.web;

import io.poimen.memory.config.UiSettings;
import io.poimen.memory.config.SecuritySettings;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/** {@code GET /memory/ui/config}, public: how the web UI logs in (issuer, client id, scopes) and renders notes. */
@RestController
class UiConfigController {
    private final Map<String, Object> config;

    UiConfigController(SecuritySettings security, UiSettings ui) {
        this.config = ui.publicConfig(security);
    }

    @GetMapping(path = "/memory/ui/config", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> config() {
        return config;
    }
}
