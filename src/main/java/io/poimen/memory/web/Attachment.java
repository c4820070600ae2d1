package io.poimen.memory.web;

import java.io.Closeable;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;

/**
 * An attachment the caller may read, opened: the bytes are read from this open file, so the answer is the file as
 * it was when it was checked and hashed even if git replaces it meanwhile. The receiver closes it.
 *
 * @param path vault-relative path as asked for
 * @param size bytes of the file when it was opened
 * @param etag strong entity tag: the file's git blob id, quoted
 */
public record Attachment(String path, AttachmentType type, FileChannel file, long size, String etag)
        implements Closeable {
    private static final int BUFFER = 64 * 1024;

    /** The file name (the last path segment). */
    public String name() {
        return path.substring(path.lastIndexOf('/') + 1);
    }

    /** Streams the file's {@link #size} bytes (fewer if it shrank since) to {@code out}, a buffer at a time. */
    public void writeTo(OutputStream out) throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(BUFFER);
        long position = 0;
        while (position < size) {
            buffer.clear().limit((int) Math.min(BUFFER, size - position));
            int n = file.read(buffer, position);
            if (n < 0) {
                break;
            }
            out.write(buffer.array(), 0, n);
            position += n;
        }
    }

    @Override
    public void close() throws IOException {
        file.close();
    }
}
