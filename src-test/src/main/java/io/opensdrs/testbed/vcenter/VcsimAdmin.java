package io.opensdrs.testbed.vcenter;

import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.security.GeneralSecurityException;
import java.security.cert.X509Certificate;
import java.time.Duration;

/**
 * Our vcsim's admin endpoints ({@code /opensdrs/...} on the simulator's own listener, no login;
 * src-test/vcsim README): what the testbed tells the simulator that no vSphere API carries — the
 * size of the device behind a datastore added at run time, the IO each window the world closes,
 * and when the emulated storage has finished a storage vMotion's copy.
 * The simulator's certificate is self-signed and made at its start, so it is trusted as is: this
 * client talks to nothing but the simulator.
 */
public final class VcsimAdmin {

    private final URI base;
    private final HttpClient http;

    /** @param vcsimUrl the simulator's URL, {@code https://user:pass@127.0.0.1:PORT/sdk} */
    public VcsimAdmin(String vcsimUrl) {
        URI u = URI.create(vcsimUrl);
        this.base = URI.create(u.getScheme() + "://" + u.getHost() + ":" + u.getPort());
        this.http = HttpClient.newBuilder().sslContext(trustAll()).connectTimeout(Duration.ofSeconds(5)).build();
    }

    /** POSTs {@code body} to {@code path} ({@code /opensdrs/perf}) and returns the answer. */
    public HttpResponse<String> post(String path, String contentType, String body) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30))
                .header("Content-Type", contentType).POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** GETs {@code path} ({@code /opensdrs/relocations}) and returns the answer. */
    public HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return http.send(HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(30)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static SSLContext trustAll() {
        try {
            SSLContext c = SSLContext.getInstance("TLS");
            c.init(null, new TrustManager[] {new X509TrustManager() {
                @Override
                public void checkClientTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public void checkServerTrusted(X509Certificate[] chain, String authType) {
                }

                @Override
                public X509Certificate[] getAcceptedIssuers() {
                    return new X509Certificate[0];
                }
            }}, null);
            return c;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
