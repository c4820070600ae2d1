package io.poimen.memory.index.opensearch;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.apache.hc.client5.http.impl.nio.PoolingAsyncClientConnectionManagerBuilder;
import org.apache.hc.client5.http.ssl.ClientTlsStrategyBuilder;
import org.apache.hc.core5.http.Header;
import org.apache.hc.core5.http.HttpHost;
import org.apache.hc.core5.http.message.BasicHeader;
import org.opensearch.client.RestClient;
import org.opensearch.client.RestClientBuilder;

/**
 * The low-level OpenSearch client from {@code poimen.opensearch.*}: HTTP basic auth when a username is set (sent
 * with every request, as the security plugin expects), and for {@code https} URLs a CA bundle (PEM, one or more
 * certificates) that the server's certificate must chain to, host name checked. Without a bundle the JVM's default
 * trust store applies.
 */
public final class OpenSearchRestClients {
    private OpenSearchRestClients() {
    }

    /** {@code urls} is one node's URL or a comma-separated list; the client moves to the next node when one does not answer. */
    public static RestClient create(String urls, String username, String password, Path caBundle) {
        HttpHost[] nodes = Arrays.stream(urls.split(",")).map(String::trim).filter(u -> !u.isEmpty())
                .map(OpenSearchRestClients::host).toArray(HttpHost[]::new);
        if (nodes.length == 0) {
            throw new IllegalArgumentException("poimen.opensearch.url names no node: " + urls);
        }
        RestClientBuilder builder = RestClient.builder(nodes);
        if (username != null && !username.isBlank()) {
            String pair = username + ":" + (password == null ? "" : password);
            builder.setDefaultHeaders(new Header[] {new BasicHeader("Authorization",
                    "Basic " + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)))});
        }
        if (caBundle != null) {
            SSLContext tls = trusting(caBundle);
            builder.setHttpClientConfigCallback(http -> http.setConnectionManager(
                    PoolingAsyncClientConnectionManagerBuilder.create()
                            .setTlsStrategy(ClientTlsStrategyBuilder.create().setSslContext(tls).build())
                            .build()));
        }
        return builder.build();
    }

    private static HttpHost host(String url) {
        try {
            return HttpHost.create(url);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("poimen.opensearch.url is not a URL: " + url, e);
        }
    }

    /** A TLS context that trusts exactly the certificates in the PEM file {@code caBundle}. */
    static SSLContext trusting(Path caBundle) {
        try (InputStream in = Files.newInputStream(caBundle)) {
            Collection<? extends Certificate> certificates = CertificateFactory.getInstance("X.509")
                    .generateCertificates(in);
            if (certificates.isEmpty()) {
                throw new IllegalArgumentException("poimen.opensearch.ca-bundle " + caBundle + " holds no certificate");
            }
            KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
            trust.load(null, null);
            int i = 0;
            for (Certificate c : certificates) {
                trust.setCertificateEntry("ca-" + i++, c);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(trust);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, factory.getTrustManagers(), null);
            return context;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read poimen.opensearch.ca-bundle " + caBundle, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalArgumentException("poimen.opensearch.ca-bundle " + caBundle + " is not a PEM bundle", e);
        }
    }
}
