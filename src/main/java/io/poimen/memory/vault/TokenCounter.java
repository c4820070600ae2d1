package io.poimen.memory.vault;

import com.knuddels.jtokkit.Encodings;
import com.knuddels.jtokkit.api.Encoding;
import com.knuddels.jtokkit.api.EncodingType;
import org.springframework.stereotype.Component;

/**
 * Counts tokens with the cl100k_base BPE. The encoding is loaded once per JVM, when the first counter is made,
 * and is thread-safe.
 * Special-token text such as {@code <|endoftext|>} is counted as ordinary text, so no input makes it throw.
 */
@Component
public class TokenCounter {
    private static final class Holder {
        static final Encoding CL100K = Encodings.newDefaultEncodingRegistry().getEncoding(EncodingType.CL100K_BASE);
    }

    /** Loads the encoding now (about half a second), not in the middle of the first ingest or query. */
    public TokenCounter() {
        Holder.CL100K.getName();
    }

    public int count(String text) {
        return text == null || text.isEmpty() ? 0 : Holder.CL100K.countTokensOrdinary(text);
    }

    /** The token ids of {@code text}, the same tokens {@link #count} counts. */
    public int[] tokens(String text) {
        return text == null || text.isEmpty() ? new int[0] : Holder.CL100K.encodeOrdinary(text).toArray();
    }
}
