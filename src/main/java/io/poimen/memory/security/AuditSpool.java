package io.poimen.memory.security;

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
        StringBuilder lines = new StringBuilder();
        for (Map<String, Object> row : rows) {
            lines.append(json.writeValueAsString(portable(row))).append('\n');
        }
        Files.createDirectories(file.toAbsolutePath().getParent());
        try (FileChannel out = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
                StandardOpenOption.APPEND)) {
            ByteBuffer bytes = ByteBuffer.wrap(lines.toString().getBytes(StandardCharsets.UTF_8));
            while (bytes.hasRemaining()) {
                out.write(bytes);
            }
            out.force(true);
        }
    }

    /**
     * Hands every spooled row to {@code writer} in one batch and empties the spool when it returns; when it
     * throws, the rows stay for the next replay. Returns how many rows were written.
     */
    public synchronized int replay(Consumer<List<Map<String, Object>>> writer) throws IOException {
        if (!Files.exists(file)) {
            return 0;
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (String line : Files.readAllLines(file, StandardCharsets.UTF_8)) {
            if (line.isBlank()) {
                continue;
            }
            try {
                rows.add(restored(json.readValue(line, ROW)));
            } catch (IOException | RuntimeException e) {
                // a line cut short by a crash while appending: nothing after it was acknowledged
                log.warn("skipping an unreadable audit spool line in {}: {}", file, e.getMessage());
            }
        }
        if (!rows.isEmpty()) {
            writer.accept(rows);
        }
        Files.delete(file);
        return rows.size();
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
