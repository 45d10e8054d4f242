package io.opensdrs.server.vsphere.vim25;

import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.HttpsURLConnection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.MessageDigest;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.Locale;

/**
 * How the client trusts vCenter's TLS certificate: a pinned thumbprint (SHA-1 as vSphere
 * shows it, or SHA-256), a CA bundle, the JVM's trust store, or — only when asked for
 * explicitly — nothing at all.
 */
public final class TlsTrust {
    private final SSLContext context;
    private final HostnameVerifier hostnames;
    private final String description;

    private TlsTrust(SSLContext context, HostnameVerifier hostnames, String description) {
        this.context = context;
        this.hostnames = hostnames;
        this.description = description;
    }

    /** The JVM's default trust store and hostname checks. */
    public static TlsTrust system() {
        try {
            return new TlsTrust(SSLContext.getDefault(), HttpsURLConnection.getDefaultHostnameVerifier(), "system");
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Trust exactly the server certificate with this thumbprint ("AB:CD:..." or plain hex;
     * 20 bytes = SHA-1, 32 bytes = SHA-256). The pin identifies the peer, so the host name
     * is not checked against the certificate (vCenter certificates often name another host).
     */
    public static TlsTrust thumbprint(String thumbprint) {
        String hex = thumbprint.replace(":", "").replace(" ", "").toLowerCase(Locale.ROOT);
        byte[] pin;
        try {
            pin = HexFormat.of().parseHex(hex);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("vcenter.thumbprint: not a hex thumbprint: " + thumbprint);
        }
        String algorithm = switch (pin.length) {
            case 20 -> "SHA-1";
            case 32 -> "SHA-256";
            default -> throw new IllegalArgumentException(
                    "vcenter.thumbprint: expected 20 (SHA-1) or 32 (SHA-256) bytes, got " + pin.length);
        };
        X509TrustManager pinned = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("client certificates are not checked here");
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                if (chain == null || chain.length == 0) {
                    throw new CertificateException("vCenter sent no certificate");
                }
                byte[] actual;
                try {
                    actual = MessageDigest.getInstance(algorithm).digest(chain[0].getEncoded());
                } catch (GeneralSecurityException e) {
                    throw new CertificateException(e);
                }
                if (!MessageDigest.isEqual(actual, pin)) {
                    throw new CertificateException("vCenter certificate thumbprint " + colons(actual)
                            + " does not match the configured " + colons(pin));
                }
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        return new TlsTrust(context(pinned), (host, session) -> true, algorithm + " thumbprint " + colons(pin));
    }

    /** Trust certificates issued by the CAs in a PEM bundle, with host name checks. */
    public static TlsTrust caBundle(Path pem) {
        try (InputStream in = Files.newInputStream(pem)) {
            KeyStore ks = KeyStore.getInstance(KeyStore.getDefaultType());
            ks.load(null, null);
            int i = 0;
            for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
                ks.setCertificateEntry("ca-" + i++, c);
            }
            if (i == 0) {
                throw new IllegalArgumentException("vcenter.ca-file: no certificate in " + pem);
            }
            TrustManagerFactory tmf = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(ks);
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, tmf.getTrustManagers(), null);
            return new TlsTrust(ctx, HttpsURLConnection.getDefaultHostnameVerifier(), "CA bundle " + pem);
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalArgumentException("vcenter.ca-file: cannot read " + pem + ": " + e.getMessage(), e);
        }
    }

    /** Accept any certificate. For simulators and labs only, and only when configured explicitly. */
    public static TlsTrust insecure() {
        X509TrustManager all = new X509TrustManager() {
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
        };
        return new TlsTrust(context(all), (host, session) -> true, "insecure (no certificate checks)");
    }

    /** The SHA-1 thumbprint of a certificate, as vSphere prints it (AB:CD:...). */
    public static String sha1Thumbprint(X509Certificate cert) {
        try {
            return colons(MessageDigest.getInstance("SHA-1").digest(cert.getEncoded()));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static SSLContext context(TrustManager tm) {
        try {
            SSLContext ctx = SSLContext.getInstance("TLS");
            ctx.init(null, new TrustManager[] {tm}, null);
            return ctx;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String colons(byte[] b) {
        return HexFormat.ofDelimiter(":").withUpperCase().formatHex(b);
    }

    SSLContext sslContext() {
        return context;
    }

    HostnameVerifier hostnameVerifier() {
        return hostnames;
    }

    @Override
    public String toString() {
        return description;
    }
}
