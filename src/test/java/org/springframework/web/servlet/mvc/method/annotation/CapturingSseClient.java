package org.springframework.web.servlet.mvc.method.annotation;

import java.io.IOException;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.Consumer;
import org.springframework.http.MediaType;

/**
 * What a client of an {@link SseEmitter} receives, without a servlet container: attaches where Spring MVC's return
 * value handler would (the emitter's package-private handler hook) and keeps every piece of text sent.
 */
public final class CapturingSseClient {
    private final List<String> received = new CopyOnWriteArrayList<>();

    private CapturingSseClient() {
    }

    public static CapturingSseClient attach(SseEmitter emitter) throws IOException {
        CapturingSseClient client = new CapturingSseClient();
        emitter.initialize(client.new Capture());
        return client;
    }

    /** Everything sent so far, in order, as one text. */
    public String text() {
        return String.join("", received);
    }

    private final class Capture implements ResponseBodyEmitter.Handler {
        @Override
        public void send(Object data, MediaType mediaType) {
            received.add(String.valueOf(data));
        }

        @Override
        public void send(Set<ResponseBodyEmitter.DataWithMediaType> items) {
            items.forEach(i -> received.add(String.valueOf(i.getData())));
        }

        @Override
        public void complete() {
        }

        @Override
        public void completeWithError(Throwable failure) {
        }

        @Override
        public void onTimeout(Runnable callback) {
        }

        @Override
        public void onError(Consumer<Throwable> callback) {
        }

        @Override
        public void onCompletion(Runnable callback) {
        }
    }
}
