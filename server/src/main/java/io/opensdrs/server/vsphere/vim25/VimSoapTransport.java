package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import jakarta.xml.bind.Unmarshaller;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

import javax.net.ssl.HttpsURLConnection;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.parsers.DocumentBuilder;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.Transformer;
import javax.xml.transform.TransformerException;
import javax.xml.transform.TransformerFactory;
import javax.xml.transform.dom.DOMSource;
import javax.xml.transform.stream.StreamResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

/**
 * SOAP 1.1 over HTTPS for vim25: the envelope is a DOM document, the payload is marshalled
 * by JAXB into its body, and the answer's {@code returnval} elements are unmarshalled into
 * the declared type. SOAP faults become {@link VimFaultException}s carrying the fault type.
 * The session is the {@code vmware_soap_session} cookie that Login sets.
 */
final class VimSoapTransport {
    static final String SOAP_NS = "http://schemas.xmlsoap.org/soap/envelope/";
    static final String VIM_NS = "urn:vim25";
    static final String XSI_NS = XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI;

    private static final JAXBContext JAXB = createContext();

    private final URI sdk;
    private final TlsTrust trust;
    private final Duration timeout;
    private final String soapAction;
    private final AtomicReference<String> sessionCookie = new AtomicReference<>();

    VimSoapTransport(URI sdk, TlsTrust trust, Duration timeout, String apiVersion) {
        this.sdk = sdk;
        this.trust = trust;
        this.timeout = timeout;
        this.soapAction = "urn:vim25/" + apiVersion;
    }

    private static JAXBContext createContext() {
        try {
            return JAXBContext.newInstance(ManagedObjectReference.class,
                    PropertyCollectorTypes.class, PropertyCollectorTypes.ArrayOfManagedObjectReference.class,
                    PropertyCollectorTypes.ArrayOfString.class, PropertyCollectorTypes.TraversalSpec.class,
                    PropertyCollectorTypes.RetrieveResult.class, PropertyCollectorTypes.UpdateSet.class,
                    InventoryTypes.ServiceContent.class, InventoryTypes.UserSession.class,
                    InventoryTypes.DatastoreSummary.class, InventoryTypes.StoragePodSummary.class,
                    InventoryTypes.ArrayOfVirtualDevice.class, InventoryTypes.VirtualDisk.class,
                    InventoryTypes.VirtualDiskFlatVer2BackingInfo.class, InventoryTypes.StorageDrsConfigInfo.class,
                    InventoryTypes.VirtualMachineFileLayoutEx.class, InventoryTypes.VirtualMachinePowerState.class,
                    TaskTypes.TaskInfo.class, TaskTypes.VirtualMachineRelocateSpec.class, TaskTypes.StoragePlacementResult.class,
                    ExtensionTypes.Extension.class,
                    PerformanceTypes.ArrayOfPerfCounterInfo.class, PerformanceTypes.PerfEntityMetricBase.class,
                    VimRequests.ThisOnly.class, VimRequests.Login.class, VimRequests.RetrievePropertiesEx.class,
                    VimRequests.ContinueRetrievePropertiesEx.class, VimRequests.CreateFilter.class,
                    VimRequests.WaitForUpdatesEx.class, VimRequests.CreateContainerView.class,
                    VimRequests.RelocateVM.class, VimRequests.ConfigureStorageDrsForPod.class, VimRequests.WithExtension.class,
                    VimRequests.WithExtensionKey.class, VimRequests.QueryPerf.class);
        } catch (JAXBException e) {
            throw new IllegalStateException("vim25 JAXB model is inconsistent", e);
        }
    }

    String sessionCookie() {
        return sessionCookie.get();
    }

    void clearSession() {
        sessionCookie.set(null);
    }

    /** Calls a method and returns its single {@code returnval}, or null when it has none. */
    <T> T call(String method, Object request, Class<T> returnType) throws VimFaultException {
        List<T> all = callList(method, request, returnType);
        return all.isEmpty() ? null : all.get(0);
    }

    /** Calls a method and returns every {@code returnval} (array-valued results). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> List<T> callList(String method, Object request, Class<T> returnType) throws VimFaultException {
        byte[] body;
        try {
            body = envelope(new JAXBElement(new QName(VIM_NS, method), request.getClass(), request));
        } catch (JAXBException | ParserConfigurationException | TransformerException e) {
            throw new IllegalStateException(method + ": cannot encode the request", e);
        }
        Element result = post(method, body);
        List<T> values = new ArrayList<>();
        if (returnType == Void.class) {
            return values;
        }
        try {
            Unmarshaller u = JAXB.createUnmarshaller();
            for (Node n = result.getFirstChild(); n != null; n = n.getNextSibling()) {
                if (n instanceof Element e && "returnval".equals(e.getLocalName())) {
                    values.add(u.unmarshal(e, returnType).getValue());
                }
            }
        } catch (JAXBException e) {
            throw new VimFaultException(method, "InvalidResponse", "cannot decode the answer: " + e, e);
        }
        return values;
    }

    private byte[] envelope(JAXBElement<?> payload)
            throws JAXBException, ParserConfigurationException, TransformerException {
        Document doc = documentBuilder().newDocument();
        Element env = doc.createElementNS(SOAP_NS, "soapenv:Envelope");
        // the prefix an xsi:type of an anyType value names ("xsd:int", see InventoryTypes.XsdInt)
        env.setAttributeNS(XMLConstants.XMLNS_ATTRIBUTE_NS_URI, "xmlns:xsd", XMLConstants.W3C_XML_SCHEMA_NS_URI);
        doc.appendChild(env);
        Element soapBody = doc.createElementNS(SOAP_NS, "soapenv:Body");
        env.appendChild(soapBody);
        Marshaller m = JAXB.createMarshaller();
        m.marshal(payload, soapBody);
        Transformer t = TransformerFactory.newInstance().newTransformer();
        t.setOutputProperty(OutputKeys.ENCODING, "UTF-8");
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        t.transform(new DOMSource(doc), new StreamResult(out));
        return out.toByteArray();
    }

    private Element post(String method, byte[] body) throws VimFaultException {
        try {
            HttpURLConnection c = (HttpURLConnection) sdk.toURL().openConnection();
            if (c instanceof HttpsURLConnection https) {
                https.setSSLSocketFactory(trust.sslContext().getSocketFactory());
                https.setHostnameVerifier(trust.hostnameVerifier());
            }
            c.setConnectTimeout((int) timeout.toMillis());
            c.setReadTimeout((int) timeout.toMillis());
            c.setRequestMethod("POST");
            c.setDoOutput(true);
            c.setRequestProperty("Content-Type", "text/xml; charset=utf-8");
            c.setRequestProperty("SOAPAction", soapAction);
            String cookie = sessionCookie.get();
            if (cookie != null) {
                c.setRequestProperty("Cookie", cookie);
            }
            try (OutputStream out = c.getOutputStream()) {
                out.write(body);
            }
            int status = c.getResponseCode();
            for (String setCookie : c.getHeaderFields().getOrDefault("Set-Cookie", List.of())) {
                if (setCookie.startsWith("vmware_soap_session=")) {
                    sessionCookie.set(setCookie.split(";", 2)[0]);
                }
            }
            InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
            if (in == null) {
                throw new VimFaultException(method, VimFaultException.TRANSPORT, "HTTP " + status + " with no body");
            }
            Document doc;
            try (in) {
                doc = documentBuilder().parse(in);
            } catch (org.xml.sax.SAXException e) {
                throw new VimFaultException(method, VimFaultException.TRANSPORT,
                        "HTTP " + status + ", not a SOAP answer: " + e.getMessage(), e);
            }
            Element soapBody = child(doc.getDocumentElement(), SOAP_NS, "Body");
            Element first = soapBody == null ? null : firstElement(soapBody);
            if (first == null) {
                throw new VimFaultException(method, VimFaultException.TRANSPORT, "HTTP " + status + ", empty SOAP body");
            }
            if (SOAP_NS.equals(first.getNamespaceURI()) && "Fault".equals(first.getLocalName())) {
                throw fault(method, first);
            }
            return first;
        } catch (IOException e) {
            throw new VimFaultException(method, VimFaultException.TRANSPORT, e.toString(), e);
        } catch (ParserConfigurationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The fault type is the xsi:type of the detail's element, or its name without "Fault". */
    private static VimFaultException fault(String method, Element fault) {
        String message = text(childNoNs(fault, "faultstring"));
        String type = "SystemError";
        Element detail = childNoNs(fault, "detail");
        Element what = detail == null ? null : firstElement(detail);
        if (what != null) {
            String xsiType = what.getAttributeNS(XSI_NS, "type");
            if (!xsiType.isEmpty()) {
                type = xsiType.contains(":") ? xsiType.substring(xsiType.indexOf(':') + 1) : xsiType;
            } else {
                String n = what.getLocalName();
                type = n.endsWith("Fault") ? n.substring(0, n.length() - "Fault".length()) : n;
            }
        }
        return new VimFaultException(method, type, message);
    }

    private static DocumentBuilder documentBuilder() throws ParserConfigurationException {
        DocumentBuilderFactory f = DocumentBuilderFactory.newInstance();
        f.setNamespaceAware(true);
        // Answers come from the network: no DTDs, no external entities.
        f.setFeature("http://apache.org/xml/features/disallow-doctype-decl", true);
        f.setFeature(XMLConstants.FEATURE_SECURE_PROCESSING, true);
        f.setExpandEntityReferences(false);
        return f.newDocumentBuilder();
    }

    private static Element child(Element parent, String ns, String local) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && local.equals(e.getLocalName()) && ns.equals(e.getNamespaceURI())) {
                return e;
            }
        }
        return null;
    }

    private static Element childNoNs(Element parent, String local) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && local.equals(e.getLocalName())) {
                return e;
            }
        }
        return null;
    }

    private static Element firstElement(Element parent) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e) {
                return e;
            }
        }
        return null;
    }

    private static String text(Element e) {
        return e == null ? "" : e.getTextContent().trim();
    }
}
