package io.poimen.memory.retention;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Clock;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;

/**
 * Audit rows on their way out of the database, as JSON lines (the fields of {@code GET /memory/audit}), appended to
 * one file per UTC day, {@code rbac-audit-YYYY-MM-DD.jsonl} in the export folder, and forced to disk before
 * {@link #append} returns. A write that fails leaves the file as it was (cut back to its length before), so a
 * retry does not leave half a line behind.
 */
class AuditExport {
    private static final ObjectMapper JSON = new ObjectMapper();
    private final Path dir;
    private final Clock clock;

    AuditExport(Path dir, Clock clock) {
        this.dir = dir;
        this.clock = clock;
    }

    Path dir() {
        return dir;
    }

    /** The file of today's exports. */
    Path file() {
        return dir.resolve("rbac-audit-" + LocalDate.ofInstant(clock.instant(), ZoneOffset.UTC) + ".jsonl");
    }

    /** Appends {@code rows} in their order, one JSON object a line, and forces them to disk. */
    void append(List<Map<String, Object>> rows) throws IOException {
        ByteArrayOutputStream lines = new ByteArrayOutputStream();
        for (Map<String, Object> row : rows) {
            lines.write(JSON.writeValueAsBytes(row));
            lines.write('\n');
        }
        Files.createDirectories(dir);
        Path file = file();
        boolean created = !Files.exists(file);
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
            long before = out.size();
            try {
                ByteBuffer bytes = ByteBuffer.wrap(lines.toByteArray());
                long at = before;
                while (bytes.hasRemaining()) {
                    at += out.write(bytes, at);
                }
                out.force(true);
            } catch (IOException e) {
                try {
                    out.truncate(before);
                    out.force(true);
                } catch (IOException undo) {
                    e.addSuppressed(undo);
                }
                throw e;
            }
        }
        if (created) {
            forceDirectory();
        }
    }

    /** The new file's directory entry on disk too (where the platform can open a directory; Linux can). */
    private void forceDirectory() {
        try (FileChannel d = FileChannel.open(dir, StandardOpenOption.READ)) {
            d.force(true);
        } catch (IOException e) {
            // not every platform syncs a directory; the file's own data is on disk
        }
    }
}
