package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.ExtensionRegistration;
import io.opensdrs.server.vsphere.vim25.Description;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes.Extension;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes.ExtensionClientInfo;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes.ExtensionServerInfo;
import io.opensdrs.server.vsphere.vim25.ExtensionTypes;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.VimFaultException;

import javax.xml.datatype.DatatypeConfigurationException;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.datatype.XMLGregorianCalendar;
import java.time.Instant;
import java.util.GregorianCalendar;
import java.util.Optional;
import java.util.TimeZone;

/**
 * The ExtensionManager: the plugin's registration, one extension with a
 * {@code vsphere-client-remote} client entry and a {@code MANIFEST_SERVER} server entry, both
 * pointing at the plugin's manifest.
 */
final class ExtensionManager {
    private final Session session;

    ExtensionManager(Session session) {
        this.session = session;
    }

    private ManagedObjectReference self() {
        return session.vim().serviceContent().extensionManager;
    }

    Optional<ExtensionRegistration> findExtension(String key) throws VimFaultException {
        Extension e = session.call(() -> find(key));
        return e == null ? Optional.empty() : Optional.of(registration(e));
    }

    /** FindExtension, then RegisterExtension when none has the key, else UpdateExtension. */
    void registerOrUpdateExtension(ExtensionRegistration r) throws VimFaultException {
        Extension e = extension(r, now());
        session.call(() -> {
            ExtensionTypes.ExtensionRequest req = new ExtensionTypes.ExtensionRequest();
            req.self = self();
            req.extension = e;
            return session.vim().invoke(find(r.key()) == null ? "RegisterExtension" : "UpdateExtension", req, Void.class);
        });
    }

    void unregisterExtension(String key) throws VimFaultException {
        session.call(() -> session.vim().invoke("UnregisterExtension", withKey(key), Void.class));
    }

    /** The registered extension with this key, or null. */
    private Extension find(String key) throws VimFaultException {
        return session.vim().invoke("FindExtension", withKey(key), Extension.class);
    }

    private ExtensionTypes.ExtensionKeyRequest withKey(String key) {
        ExtensionTypes.ExtensionKeyRequest req = new ExtensionTypes.ExtensionKeyRequest();
        req.self = self();
        req.extensionKey = key;
        return req;
    }

    /** What vCenter holds, as registered: the manifest is the client entry's URL ({@code (none)} without one). */
    static ExtensionRegistration registration(Extension e) {
        String manifest = e.client.isEmpty() ? null : e.client.get(0).url;
        String thumb = e.server.isEmpty() ? null : e.server.get(0).serverThumbprint;
        String email = e.server.isEmpty() || e.server.get(0).adminEmail.isEmpty() ? null : e.server.get(0).adminEmail.get(0);
        return new ExtensionRegistration(e.key, e.version,
                e.description == null ? null : e.description.label, e.description == null ? null : e.description.summary,
                e.company, manifest == null ? "(none)" : manifest, thumb, email);
    }

    static Extension extension(ExtensionRegistration r, XMLGregorianCalendar heartbeat) {
        Extension e = new Extension();
        e.key = r.key();
        e.version = r.version();
        e.company = r.company();
        e.description = new Description(r.label(), r.summary());
        e.lastHeartbeatTime = heartbeat;
        e.shownInSolutionManager = false;

        ExtensionClientInfo client = new ExtensionClientInfo();
        client.version = r.version();
        client.company = r.company();
        client.description = new Description(r.label(), r.summary());
        client.type = "vsphere-client-remote";
        client.url = r.manifestUrl();
        e.client.add(client);

        ExtensionServerInfo server = new ExtensionServerInfo();
        server.url = r.manifestUrl();
        server.company = r.company();
        server.description = new Description(r.label(), r.summary());
        server.type = "MANIFEST_SERVER";
        server.serverThumbprint = r.serverThumbprint();
        if (r.adminEmail() != null) {
            server.adminEmail.add(r.adminEmail());
        }
        e.server.add(server);
        return e;
    }

    private static XMLGregorianCalendar now() {
        try {
            GregorianCalendar c = new GregorianCalendar(TimeZone.getTimeZone("UTC"));
            c.setTimeInMillis(Instant.now().toEpochMilli());
            return DatatypeFactory.newInstance().newXMLGregorianCalendar(c);
        } catch (DatatypeConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }
}
