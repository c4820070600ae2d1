package io.poimen.memory.agents;

import io.poimen.memory.security.AccessChecks;
import io.poimen.memory.security.Action;
import io.poimen.memory.security.Caller;
import io.poimen.memory.security.OidcAccessChecks;
import io.poimen.memory.security.VaultResource;
import io.poimen.memory.security.PathMentions;
import io.poimen.memory.vault.VaultPaths;
import io.poimen.memory.api.ApiException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * What one viewer may see of agent events. A viewer sees the events of their own agents, and the events of a
 * project they may read (the event's {@code payload.project}); everything else is hidden. In what is shown, every
 * object or string naming a vault path the viewer may not read is removed (a retrieved chunk goes with its
 * heading and score). Read decisions are the {@link AccessChecks} bean's, asked once per path and viewer.
 * The local operator of the no-auth mode sees everything.
 */
public class AgentEventAccess {
    private static final Object DROP = new Object();
    private final AccessChecks checks;
    private final Supplier<Set<String>> vaultPaths;

    /** @param vaultPaths the vault's note paths now, to find them in free text ({@link PathMentions}) */
    public AgentEventAccess(AccessChecks checks, Supplier<Set<String>> vaultPaths) {
        this.checks = checks;
        this.vaultPaths = vaultPaths;
    }

    /**
     * @throws ApiException 403 (or 400 for a name that is no project folder) unless the caller may read it; the same
     *                      403 for a project with no notes, so the answer does not tell a missing project from a denied one
     */
    public void requireProject(Caller caller, String project, String traceId) {
        if (caller.anonymous()) {
            return;
        }
        if (project.isBlank() || project.contains("/")) {
            throw ApiException.badRequest("payload.project must be a project folder name, got " + project);
        }
        String folder = VaultPaths.PROJECTS + project + "/";
        checks.requireRead(caller, folder, traceId);
        if (vaultPaths.get().stream().noneMatch(p -> p.startsWith(folder))) {
            throw OidcAccessChecks.denied(Action.READ, VaultResource.project(project));
        }
    }

    /** A viewer for one request (or one stream subscription); its decisions are audited under {@code traceId}. */
    public Viewer viewer(Caller caller, String traceId) {
        return new Viewer(caller, traceId);
    }

    public final class Viewer {
        private final Caller caller;
        private final String traceId;
        private final Map<String, Boolean> readable = new ConcurrentHashMap<>();

        private Viewer(Caller caller, String traceId) {
            this.caller = caller;
            this.traceId = traceId;
        }

        public Caller caller() {
            return caller;
        }

        /** The event as this viewer may see it, or null when it is hidden from them. */
        public AgentEvent view(AgentEvent event) {
            if (caller.anonymous()) {
                return event;
            }
            boolean own = AgentIds.ownedBy(event.agentId(), caller);
            Object project = event.payload() == null ? null : event.payload().get("project");
            if (!own && !(project instanceof String p && allowsProject(p))) {
                return null;
            }
            Object cleaned = clean(event.payload());
            if (cleaned == DROP) {
                return null;
            }
            @SuppressWarnings("unchecked")
            Map<String, Object> payload = (Map<String, Object>) cleaned;
            if (payload.get("chunks") instanceof List<?> chunks && payload.containsKey("scores")) {
                // memory_retrieved: the score list runs parallel to the chunks that are left
                payload.put("scores", chunks.stream().map(c -> c instanceof Map<?, ?> m ? m.get("score") : null)
                        .toList());
            }
            return event.withPayload(payload);
        }

        private boolean allowsProject(String project) {
            return !project.isBlank() && allows(VaultPaths.PROJECTS + project + "/");
        }

        private boolean allows(String path) {
            String p = path.indexOf('#') >= 0 ? path.substring(0, path.indexOf('#')) : path;
            return readable.computeIfAbsent(p, x -> {
                try {
                    checks.requireRead(caller, x, traceId);
                    return true;
                } catch (ApiException e) {
                    return false;
                }
            });
        }

        /**
         * {@code s} as a whole names a path the viewer may not read: a vault path as events carry it (a note's exact
         * path names that note only), or any form {@link PathMentions} reads as a note (another case, {@code %2F}, a
         * slash look-alike, a relative path, a bare name).
         */
        private boolean namesDenied(String s) {
            if (looksLikePath(s) && !allows(s)) {
                return true;
            }
            return !vaultPaths.get().contains(s)
                    && PathMentions.named(s, vaultPaths.get()).stream().anyMatch(p -> !allows(p));
        }

        /** The value without what names a denied path; {@link #DROP} when the value itself must go. */
        private Object clean(Object value) {
            if (value instanceof String s) {
                if (namesDenied(s)) {
                    return DROP;
                }
                return looksLikePath(s) ? s : PathMentions.withoutDenied(s, vaultPaths.get(), this::allows);
            }
            if (value instanceof Map<?, ?> map) {
                Map<String, Object> out = new LinkedHashMap<>();
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    // an object naming a denied note describes that note (heading, score, text): all of it goes
                    if (e.getValue() instanceof String s && namesDenied(s)) {
                        return DROP;
                    }
                }
                for (Map.Entry<?, ?> e : map.entrySet()) {
                    String key = String.valueOf(e.getKey());
                    // a key naming a denied path ({"projects/p/secret.md": 0.9}) goes with its value
                    if (vaultPaths.get().contains(key) ? !allows(key) : (namesDenied(key)
                            || !key.equals(PathMentions.withoutDenied(key, vaultPaths.get(), this::allows)))) {
                        continue;
                    }
                    Object v = clean(e.getValue());
                    if (v != DROP) {
                        out.put(key, v);
                    }
                }
                return out;
            }
            if (value instanceof List<?> list) {
                List<Object> out = new ArrayList<>(list.size());
                for (Object item : list) {
                    Object v = clean(item);
                    if (v != DROP) {
                        out.add(v);
                    }
                }
                return out;
            }
            return value;
        }
    }

    /** A vault path as events carry it ({@code projects/...}, {@code shared/...}, any {@code .md} note). */
    static boolean looksLikePath(String s) {
        if (s.isEmpty() || s.length() > 1024 || s.chars().anyMatch(Character::isWhitespace)) {
            return false;
        }
        String p = s.indexOf('#') >= 0 ? s.substring(0, s.indexOf('#')) : s;
        return p.startsWith(VaultPaths.PROJECTS) || p.startsWith(VaultPaths.SHARED) || p.endsWith(".md");
    }
}
