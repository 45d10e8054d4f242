package io.opensdrs.server.vsphere.vim25;

import io.opensdrs.server.vsphere.vim25.ServiceInstanceTypes.ServiceContent;
import io.opensdrs.server.vsphere.vim25.ServiceInstanceTypes.UserSession;

import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * A connection to vim25: the {@link ServiceContent} read at connect time, the session
 * (SessionManager Login and Logout, ServiceInstance CurrentTime), and {@link #invoke} for the
 * methods of the managed objects, which {@code vsphere.object} calls each on the object the API
 * defines it on. Stateless apart from the session cookie and the ServiceContent.
 */
public final class Vim25Client {
    /** The API version announced in SOAPAction; vCenter 7.0 and later and vcsim accept it. */
    public static final String API_VERSION = "7.0.3.0";

    private static final ManagedObjectReference SERVICE_INSTANCE =
            new ManagedObjectReference("ServiceInstance", "ServiceInstance");

    private final VimSoapTransport soap;
    private final ServiceContent content;

    private Vim25Client(VimSoapTransport soap, ServiceContent content) {
        this.soap = soap;
        this.content = content;
    }

    /** Connects to {@code https://host/sdk} and reads the ServiceContent; no login yet. */
    public static Vim25Client connect(URI sdk, TlsTrust trust, Duration timeout) throws VimFaultException {
        VimSoapTransport soap = new VimSoapTransport(sdk, trust, timeout, API_VERSION);
        ServiceContent content = soap.call("RetrieveServiceContent",
                new VimRequests.ThisOnly(SERVICE_INSTANCE), ServiceContent.class);
        if (content == null || content.propertyCollector == null) {
            throw new VimFaultException("RetrieveServiceContent", "InvalidResponse", "no ServiceContent from " + sdk);
        }
        return new Vim25Client(soap, content);
    }

    public ServiceContent serviceContent() {
        return content;
    }

    // ------------------------------------------------------------------ SessionManager

    public UserSession login(String userName, String password) throws VimFaultException {
        ServiceInstanceTypes.LoginRequest req = new ServiceInstanceTypes.LoginRequest();
        req.self = content.sessionManager;
        req.userName = userName;
        req.password = password;
        return soap.call("Login", req, UserSession.class);
    }

    public void logout() throws VimFaultException {
        try {
            soap.call("Logout", new VimRequests.ThisOnly(content.sessionManager), Void.class);
        } finally {
            soap.clearSession();
        }
    }

    /** ServiceInstance.CurrentTime: the cheapest authenticated call, used as keep-alive. */
    public String currentTime() throws VimFaultException {
        return soap.call("CurrentTime", new VimRequests.ThisOnly(SERVICE_INSTANCE), String.class);
    }

    public boolean hasSession() {
        return soap.sessionCookie() != null;
    }

    /**
     * Calls a vim25 method on the object the request names ({@code _this}) and returns its
     * {@code returnval}, or null when it has none (and for {@code Void.class}).
     */
    public <T> T invoke(String method, Object request, Class<T> returnType) throws VimFaultException {
        return soap.call(method, request, returnType);
    }

    /** Calls a vim25 method and reads every {@code returnval} with {@code reader} as the answer streams in. */
    public <T> List<T> invokeList(String method, Object request, ReturnvalReader<T> reader) throws VimFaultException {
        return soap.callList(method, request, reader);
    }
}
