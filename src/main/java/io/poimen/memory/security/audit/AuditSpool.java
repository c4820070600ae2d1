package io.poimen.memory.security.audit;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Timestamp;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Audit rows that could not be written to the database, kept on local disk (JSON lines, forced to the device)
 * until a replay writes them: while PostgreSQL is down, queries go on and no decision goes unrecorded.
 */
public class AuditSpool {
    private static final Logger log = LoggerFactory.getLogger(AuditSpool.class);
    private static final TypeReference<Map<String, Object>> ROW = new TypeReference<>() { };

    private final Path file;
    private final ObjectMapper json = new ObjectMapper();

    public AuditSpool(Path file) {
        this.file = file;
    }

    public Path file() {
        return file;
    }

    public synchronized void append(List<Map<String, Object>> rows) throws IOException {
        appendLines(file, lines(rows));
    }

    private List<String> lines(List<Map<String, Object>> rows) throws IOException {
        List<String> lines = new ArrayList<>();
        for (Map<String, Object> row : rows) {
            lines.add(json.writeValueAsString(portable(row)));
        }
        return lines;
    }

    /** Rows that can never be written (the table refuses them), set aside so that they do not block the rest. */
    public Path quarantine() {
        return file.resolveSibling(file.getFileName() + ".quarantine");
    }

    /**
     * Hands every spooled row to {@code writer} in one batch and empties the spool when it returns. When the
     * batch is refused for its data ({@link #unwritable}), the rows are written one at a time and those refused
     * go to {@link #quarantine()}; when the database is unreachable the rows stay for the next replay and the
     * exception goes to the caller. Returns how many rows were written.
     */
    public synchronized int replay(Consumer<List<Map<String, Object>>> writer) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        List<String> unreadable = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            try {
                rows.add(restored(json.readValue(line, ROW)));
            } catch (IOException | RuntimeException e) {
                // e.g. a line cut short by a crash while appending: nothing after it was acknowledged
                log.warn("an unreadable audit spool line of {} goes to {}: {}", file, quarantine(), e.getMessage());
                unreadable.add(line);
            }
        }
        if (!unreadable.isEmpty()) {
            appendLines(quarantine(), unreadable);
        }
        int written = 0;
        if (!rows.isEmpty()) {
            try {
                writer.accept(rows);
                written = rows.size();
            } catch (RuntimeException e) {
                if (!unwritable(e)) {
                    rewrite(rows);
                    throw e;
                }
                written = oneByOne(rows, writer);
            }
        }
        Files.deleteIfExists(file);
        return written;
    }

    private int oneByOne(List<Map<String, Object>> rows, Consumer<List<Map<String, Object>>> writer)
            throws IOException {
        int written = 0;
        List<String> refused = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            try {
                writer.accept(List.of(rows.get(i)));
                written++;
            } catch (RuntimeException e) {
                if (!unwritable(e)) {
                    appendLines(quarantine(), refused);
                    rewrite(rows.subList(i, rows.size()));
                    throw e;
                }
                log.error("audit row refused by the database, moved to {}: {} ({})", quarantine(),
                        json.writeValueAsString(portable(rows.get(i))), rootMessage(e));
                refused.add(json.writeValueAsString(portable(rows.get(i))));
            }
        }
        appendLines(quarantine(), refused);
        return written;
    }

    /**
     * True when the database refused the rows themselves (SQL state class 22 data exception or 23 integrity
     * constraint violation): writing them again can never succeed, unlike a database that is down.
     */
    public static boolean unwritable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof org.springframework.dao.DataIntegrityViolationException) {
                return true;
            }
            if (t instanceof java.sql.SQLException sql) {
                for (java.sql.SQLException s = sql; s != null; s = s.getNextException()) {
                    String state = s.getSQLState();
                    if (state != null && (state.startsWith("22") || state.startsWith("23"))) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage();
    }

    /** Replaces the spool with {@code rows} (the ones still to write). */
    private void rewrite(List<Map<String, Object>> rows) throws IOException {
        Path next = file.resolveSibling(file.getFileName() + ".next");
        Files.deleteIfExists(next);
        appendLines(next, lines(rows));
        Files.move(next, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** Appends the lines and forces them to the device before returning. */
    private static void appendLines(Path target, List<String> lines) throws IOException {
        if (lines.isEmpty()) {
            return;
        }
        StringBuilder text = new StringBuilder();
        lines.forEach(l -> text.append(l).append('\n'));
        Files.createDirectories(target.toAbsolutePath().getParent());
        try (FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer bytes = ByteBuffer.wrap(text.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
    }

    private static Map<String, Object> portable(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>(row);
        if (out.get("user_groups") instanceof String[] groups) {
            out.put("user_groups", List.of(groups));
        }
        if (out.get("timestamp") instanceof Timestamp at) {
            out.put("timestamp", at.toInstant().toString());
        }
        return out;
    }

    private static Map<String, Object> restored(Map<String, Object> row) {
        Map<String, Object> out = new LinkedHashMap<>(row);
        if (out.get("user_groups") instanceof List<?> groups) {
            out.put("user_groups", groups.stream().map(String::valueOf).toArray(String[]::new));
        }
        if (out.get("timestamp") instanceof String at) {
            out.put("timestamp", Timestamp.from(Instant.parse(at)));
        }
        return out;
    }
}
