package io.poimen.memory.web;

import io.poimen.memory.config.SecuritySettings;
import io.poimen.memory.config.UiSettings;
import io.poimen.memory.grc.ReviewHost;
import io.poimen.memory.grc.ReviewHosts;
import java.util.LinkedHashMap;
import java.util.Map;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /memory/ui/config}, public: how the web UI logs in (issuer, client id, scopes), renders notes, and where
 * edits are reviewed ({@code review}: {@code local}, {@code forgejo}, or {@code none}: the UI offers no editing).
 */
@RestController
class UiConfigController {
    private final Map<String, Object> config;
    private final ReviewHosts reviewHosts;

    UiConfigController(SecuritySettings security, UiSettings ui, ReviewHosts reviewHosts) {
        this.config = ui.publicConfig(security);
        this.reviewHosts = reviewHosts;
    }

    @GetMapping(path = "/memory/ui/config", produces = MediaType.APPLICATION_JSON_VALUE)
    Map<String, Object> config() {
        Map<String, Object> out = new LinkedHashMap<>(config);
        ReviewHost host = reviewHosts.available();
        out.put("review", host == null ? "none" : host.json());
        return out;
    }
}
