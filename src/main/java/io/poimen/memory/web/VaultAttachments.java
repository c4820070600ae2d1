package io.poimen.memory.web;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import io.poimen.memory.api.ApiException;
import io.poimen.memory.security.Access;
import io.poimen.memory.security.auth.CallerResolver;
import io.poimen.memory.security.auth.ExchangeSecurity;
import io.poimen.memory.security.ReadAccess;
import io.poimen.memory.security.policy.VaultPathGuard;
import io.poimen.memory.vault.PolicyFileNames;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import org.apache.camel.Exchange;
import org.apache.camel.Header;

/**
 * {@code GET /memory/vault/attachment?path=} (routes/vault.camel.yaml, streamed by {@link AttachmentServlet}): a
 * file of the vault that is not a note, under the read policy of its folder, decided as for a note there.
 *
 * <p>One answer, 404 {@code no such attachment: <path>}, for everything the caller may not read and everything the
 * hub does not serve as a vault file: a missing file, a folder, a path under a file, a file in a folder the caller
 * may not read, anything in a hidden folder ({@code .git}, {@code .obsidian}) or hidden itself, a policy file or a
 * near-miss of its name, a symbolic link anywhere on the path (as the ingest, which never lists one: a link could
 * show another folder's file under this folder's policy, or a file outside the vault), a FIFO or device. The read
 * decision is made (and audited) before the disk is looked at, so a denied file and a missing one cost the same
 * decision. A path that is not a safe vault path at all is 400 {@code bad_path} ({@link VaultPathGuard}); a file
 * type outside {@link AttachmentType} is 404 naming the types served; a readable file over
 * {@code poimen.vault.max-attachment-bytes} is 413 {@code attachment_too_large}.
 */
public class VaultAttachments {
    private final Path vault;
    private final CallerResolver callers;
    private final Access checks;
    private final long maxBytes;
    /** Git blob ids by file version, so that a revalidation (If-None-Match) reads no file. */
    private final Cache<Version, String> blobIds = Caffeine.newBuilder().maximumSize(10_000).build();

    public VaultAttachments(Path vault, CallerResolver callers, Access checks, long maxBytes) {
        this.vault = vault.toAbsolutePath().normalize();
        this.callers = callers;
        this.checks = checks;
        this.maxBytes = maxBytes;
    }

    private record Version(String path, long size, FileTime modified, Object fileKey) {
    }

    /** The attachment at {@code path}, open for reading; the caller of this method closes it. */
    public Attachment open(Exchange exchange, @Header("path") String path) {
        VaultPathGuard.check(path);
        AttachmentType type = AttachmentType.of(path).orElseThrow(() -> ApiException.notFound(
                "not an attachment the hub serves (" + AttachmentType.extensions() + "): " + path));
        if (!servable(path) || !readable(exchange, path)) {
            throw notFound(path);
        }
        Path file = regularFile(path);
        FileChannel channel = null;
        try {
            BasicFileAttributes before = attributes(file);
            channel = FileChannel.open(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS);
            BasicFileAttributes after = attributes(file);
            long size = channel.size();
            if (size > maxBytes) {
                throw new ApiException(413, "attachment_too_large", "attachment over "
                        + "poimen.vault.max-attachment-bytes (" + maxBytes + " bytes): " + path);
            }
            Version version = new Version(path, size, after.lastModifiedTime(), after.fileKey());
            FileChannel open = channel;
            // the cache only for a file that stayed the same while it was opened: its id is then the open file's
            String id = version.equals(new Version(path, before.size(), before.lastModifiedTime(), before.fileKey()))
                    ? blobIds.get(version, v -> blobId(open, size)) : blobId(open, size);
            Attachment attachment = new Attachment(path, type, channel, size, "\"" + id + "\"");
            channel = null;
            return attachment;
        } catch (IOException | UncheckedIOException e) {
            throw notFound(path); // gone or unreadable since the check: as missing
        } finally {
            closeQuietly(channel);
        }
    }

    private static BasicFileAttributes attributes(Path file) throws IOException {
        return Files.readAttributes(file, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
    }

    private static void closeQuietly(FileChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                // nothing was read from it that is still needed
            }
        }
    }

    /** 404 {@code no such attachment}: the one answer for a missing file and one the caller may not read. */
    static ApiException notFound(String path) {
        return ApiException.notFound("no such attachment: " + path);
    }

    /** Not hidden, not in a hidden folder, not a policy file or a near-miss of its name. */
    private static boolean servable(String path) {
        for (String segment : path.split("/")) {
            if (segment.startsWith(".")) {
                return false;
            }
        }
        return !PolicyFileNames.policyName(path.substring(path.lastIndexOf('/') + 1));
    }

    /**
     * The folder's read decision, audited. A path whose existing part leads out of the vault through a symbolic
     * link is refused by the access checks' path guard (400 there): here it is a file the hub does not serve.
     */
    private boolean readable(Exchange exchange, String path) {
        ReadAccess access = checks.reads(callers.caller(exchange), ExchangeSecurity.traceId(exchange));
        try {
            return access.allows(path);
        } catch (ApiException e) {
            if (e.status() == 400) {
                return false;
            }
            throw e;
        }
    }

    /** The file itself, reached without following a symbolic link on any segment; else 404. */
    private Path regularFile(String path) {
        try {
            Path current = vault.toRealPath();
            BasicFileAttributes attributes = null;
            for (String segment : path.split("/")) {
                current = current.resolve(segment);
                attributes = attributes(current);
                if (attributes.isSymbolicLink()) {
                    throw notFound(path);
                }
            }
            if (attributes == null || !attributes.isRegularFile()) {
                throw notFound(path);
            }
            return current;
        } catch (IOException e) {
            throw notFound(path); // missing, or a segment that is a file (a path under a file)
        }
    }

    /** The id git gives the file's content ({@code git hash-object}), read from the open file. */
    static String blobId(FileChannel channel, long size) {
        try {
            MessageDigest sha1 = MessageDigest.getInstance("SHA-1");
            sha1.update(("blob " + size + "\0").getBytes(StandardCharsets.US_ASCII));
            ByteBuffer buffer = ByteBuffer.allocate(64 * 1024);
            long position = 0;
            while (position < size) {
                buffer.clear();
                int n = channel.read(buffer, position);
                if (n < 0) {
                    break;
                }
                buffer.flip();
                sha1.update(buffer);
                position += n;
            }
            return HexFormat.of().formatHex(sha1.digest());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
