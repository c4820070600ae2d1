package io.poimen.memory.web;

import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;

/**
 * The files of the vault that {@code GET /memory/vault/attachment} serves, by extension (any case), with the content
 * type they are served as. A fixed list: anything else (notes, policy files, scripts, HTML) is never served there.
 */
public enum AttachmentType {
    PNG("image/png", "png"),
    JPEG("image/jpeg", "jpg", "jpeg"),
    GIF("image/gif", "gif"),
    WEBP("image/webp", "webp"),
    /** Served with {@link #SANDBOX}: opened on its own, an SVG's scripts, event handlers and links run nothing. */
    SVG("image/svg+xml", "svg"),
    PDF("application/pdf", "pdf");

    /**
     * The Content-Security-Policy of an SVG answer, instead of the hub's: nothing loads, no script runs, no form or
     * navigation, and the document gets an opaque origin (so it cannot read the hub's API even as the same site).
     * Its own inline {@code style} works so that it still looks as drawn.
     */
    public static final String SANDBOX = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

    private final String mediaType;
    private final String[] extensions;

    AttachmentType(String mediaType, String... extensions) {
        this.mediaType = mediaType;
        this.extensions = extensions;
    }

    public String mediaType() {
        return mediaType;
    }

    /** The Content-Security-Policy this type is served with, or null for the hub's own. */
    public String contentSecurityPolicy() {
        return this == SVG ? SANDBOX : null;
    }

    /** The type of a vault path by its extension; empty for every other file (a note, a policy file, …). */
    public static Optional<AttachmentType> of(String path) {
        String name = path.substring(path.lastIndexOf('/') + 1);
        int dot = name.lastIndexOf('.');
        if (dot <= 0) {
            return Optional.empty();
        }
        String ext = name.substring(dot + 1).toLowerCase(Locale.ROOT);
        return Arrays.stream(values()).filter(t -> Arrays.asList(t.extensions).contains(ext)).findFirst();
    }

    /** The extensions served, for messages and docs: {@code png, jpg, jpeg, …}. */
    public static String extensions() {
        return String.join(", ", Arrays.stream(values()).flatMap(t -> Arrays.stream(t.extensions)).toList());
    }
}
