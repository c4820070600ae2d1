package io.poimen.memory.config;

import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.util.unit.DataSize;

/**
 * Settings under {@code poimen.http.*}.
 *
 * @param maxBody the largest request body each endpoint takes; a larger one is answered 413 before it is read
 */
public record HttpProperties(@DefaultValue MaxBody maxBody) {

    /**
     * Request body caps (a size such as {@code 64KB} or {@code 4MB}).
     *
     * @param query      {@code POST /memory/query}
     * @param draft      {@code POST /memory/grc/draft} (a note of up to 1 MB, as escaped JSON)
     * @param agentEvent {@code POST /memory/agents/events}
     * @param webhook    {@code POST /memory/webhooks/forgejo}, read before its signature is checked
     * @param mcp        {@code POST /mcp} (a {@code propose_edit} call carries a whole note)
     * @param other      a body on any other path (admin reindex, paths that take none)
     */
    public record MaxBody(@DefaultValue("64KB") DataSize query, @DefaultValue("4MB") DataSize draft,
                          @DefaultValue("64KB") DataSize agentEvent, @DefaultValue("1MB") DataSize webhook,
                          @DefaultValue("4MB") DataSize mcp, @DefaultValue("64KB") DataSize other) {

        public MaxBody {
            for (DataSize s : new DataSize[] {query, draft, agentEvent, webhook, mcp, other}) {
                if (s.toBytes() < 1 || s.toBytes() > Integer.MAX_VALUE - 8) {
                    throw new IllegalArgumentException("poimen.http.max-body.* takes 1 byte to 2 GB, got " + s);
                }
            }
        }
    }
}
