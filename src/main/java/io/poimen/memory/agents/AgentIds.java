package io.poimen.memory.agents;

import io.poimen.memory.security.policy.Caller;
import io.poimen.memory.api.ApiException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Agent ids bound to the caller who produced the events. A signed-in caller's agent {@code claude} is stored as
 * {@code <subject>/claude}: the id a client sends may not contain {@code /}, so everything before the last
 * {@code /} of a stored id is its owner and no caller can write under another's. The local operator of the
 * no-auth mode (one caller, nobody to impersonate) keeps the id as sent.
 */
final class AgentIds {
    static final int MAX_CLIENT_ID_CHARS = 128;
    static final int MAX_SESSION_CHARS = 256;
    /** Longer subjects are shortened with a hash so that owner + "/" + id fits the 256-character column. */
    private static final int MAX_OWNER_CHARS = 100;

    private AgentIds() {
    }

    /** The stored id of {@code clientId} (already checked by {@link #checkedClientId}) posted by {@code caller}. */
    static String stored(Caller caller, String clientId) {
        return caller.anonymous() ? clientId : owner(caller) + "/" + clientId;
    }

    /** The owner part of a signed-in caller's stored ids. */
    static String owner(Caller caller) {
        String s = caller.subject();
        if (s.length() <= MAX_OWNER_CHARS) {
            return s;
        }
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return s.substring(0, 60) + "~" + HexFormat.of().formatHex(hash, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The owner of a stored id, or null for ids stored in the no-auth mode. */
    static String ownerOf(String storedId) {
        int slash = storedId == null ? -1 : storedId.lastIndexOf('/');
        return slash < 0 ? null : storedId.substring(0, slash);
    }

    static boolean ownedBy(String storedId, Caller caller) {
        return !caller.anonymous() && owner(caller).equals(ownerOf(storedId));
    }

    /**
     * A filter on agent ids as a caller writes it: a full stored id ({@code bob/claude}) as is, a bare id
     * ({@code claude}) as the caller's own agent.
     */
    static String filter(Caller caller, String agentId) {
        if (agentId == null || agentId.isBlank()) {
            return null;
        }
        return agentId.contains("/") ? agentId : stored(caller, agentId);
    }

    /** @throws ApiException 400 naming {@code field} when {@code id} is not a usable agent id */
    static String checkedClientId(String field, String id) {
        if (id == null || id.isBlank()) {
            throw ApiException.badRequest(field + " must be a non-empty string");
        }
        if (id.length() > MAX_CLIENT_ID_CHARS) {
            throw ApiException.badRequest(field + " over " + MAX_CLIENT_ID_CHARS + " characters");
        }
        if (id.indexOf('/') >= 0 || id.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ApiException.badRequest(field + " must not contain '/' or control characters (the hub adds "
                    + "the caller's subject in front of it)");
        }
        return id;
    }

    /** @throws ApiException 400 naming {@code field} when {@code id} is not a usable session id */
    static String checkedSessionId(String field, String id) {
        if (id == null || id.isBlank()) {
            throw ApiException.badRequest(field + " must be a non-empty string");
        }
        if (id.length() > MAX_SESSION_CHARS) {
            throw ApiException.badRequest(field + " over " + MAX_SESSION_CHARS + " characters");
        }
        if (id.chars().anyMatch(c -> c < 0x20 || c == 0x7f)) {
            throw ApiException.badRequest(field + " must not contain control characters");
        }
        return id;
    }
}
