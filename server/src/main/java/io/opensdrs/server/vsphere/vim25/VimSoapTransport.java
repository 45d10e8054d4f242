package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.JAXBContext;
import jakarta.xml.bind.JAXBElement;
import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Marshaller;
import jakarta.xml.bind.Unmarshaller;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.net.ssl.HttpsURLConnection;
import javax.xml.XMLConstants;
import javax.xml.namespace.QName;
import javax.xml.stream.XMLInputFactory;
import javax.xml.stream.XMLStreamConstants;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;
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
            return JAXBContext.newInstance(ManagedObjectReference.class, VimRequests.ThisOnly.class,
                    ServiceInstanceTypes.ServiceContent.class, ServiceInstanceTypes.UserSession.class,
                    ServiceInstanceTypes.LoginRequest.class,
                    PropertyCollectorTypes.class, PropertyCollectorTypes.ArrayOfManagedObjectReference.class,
                    PropertyCollectorTypes.ArrayOfString.class, PropertyCollectorTypes.TraversalSpec.class,
                    PropertyCollectorTypes.RetrieveResult.class, PropertyCollectorTypes.UpdateSet.class,
                    PropertyCollectorTypes.RetrievePropertiesExRequest.class,
                    PropertyCollectorTypes.ContinueRetrievePropertiesExRequest.class, PropertyCollectorTypes.CreateFilterRequest.class,
                    PropertyCollectorTypes.WaitForUpdatesExRequest.class, PropertyCollectorTypes.CreateContainerViewRequest.class,
                    DatastoreTypes.DatastoreSummary.class, DatastoreTypes.StoragePlacementResult.class,
                    DatastoreTypes.StorageIORMInfo.class, DatastoreTypes.ConfigureDatastoreIORMRequest.class,
                    VirtualMachineTypes.ArrayOfVirtualDevice.class, VirtualMachineTypes.VirtualDisk.class,
                    VirtualMachineTypes.VirtualDiskFlatVer2BackingInfo.class, VirtualMachineTypes.VirtualMachineFileLayoutEx.class,
                    VirtualMachineTypes.VirtualMachinePowerState.class, VirtualMachineTypes.VirtualMachineRelocateSpec.class,
                    VirtualMachineTypes.RelocateVMRequest.class,
                    StorageDrsTypes.StoragePodSummary.class, StorageDrsTypes.StorageDrsConfigInfo.class,
                    StorageDrsTypes.ConfigureStorageDrsForPodRequest.class,
                    TaskTypes.TaskInfo.class,
                    PerformanceTypes.ArrayOfPerfCounterInfo.class, PerformanceTypes.PerfEntityMetricBase.class,
                    PerformanceTypes.QueryPerfRequest.class,
                    ExtensionTypes.Extension.class, ExtensionTypes.ExtensionRequest.class, ExtensionTypes.ExtensionKeyRequest.class);
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
    <T> List<T> callList(String method, Object request, Class<T> returnType) throws VimFaultException {
        return callList(method, request, returnType == Void.class ? null : (r, u) -> u.unmarshal(r, returnType).getValue());
    }

    /** Calls a method and reads every {@code returnval} with {@code reader} (null: the answer has none). */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <T> List<T> callList(String method, Object request, ReturnvalReader<T> reader) throws VimFaultException {
        byte[] body;
        try {
            body = envelope(new JAXBElement(new QName(VIM_NS, method), request.getClass(), request));
        } catch (JAXBException | ParserConfigurationException | TransformerException e) {
            throw new IllegalStateException(method + ": cannot encode the request", e);
        }
        return post(method, body, reader);
    }

    private byte[] envelope(JAXBElement<?> payload)
            throws JAXBException, ParserConfigurationException, TransformerException {
        Document doc = documentBuilder().newDocument();
        Element env = doc.createElementNS(SOAP_NS, "soapenv:Envelope");
        // the prefix an xsi:type of an anyType value names ("xsd:int", see StorageDrsTypes.XsdInt)
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

    /**
     * Posts the envelope and reads the answer as it arrives (StAX): each {@code returnval} is unmarshalled
     * straight from the stream. A DOM of the whole answer first, then JAXB over the DOM, cost twice the
     * parse, and QueryPerf's answers are megabytes, read every 20 s.
     */
    private <T> List<T> post(String method, byte[] body, ReturnvalReader<T> reader) throws VimFaultException {
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
            try (in) {
                List<T> values = read(method, status, in, reader);
                in.transferTo(OutputStream.nullOutputStream()); // the envelope's end: a connection read to its end is reused
                return values;
            }
        } catch (IOException e) {
            throw new VimFaultException(method, VimFaultException.TRANSPORT, e.toString(), e);
        }
    }

    /** The answer's returnvals, or its SOAP fault thrown; a stream that is no SOAP answer is a transport fault. */
    static <T> List<T> read(String method, int status, InputStream in, ReturnvalReader<T> reader) throws VimFaultException {
        XMLStreamReader r = null;
        try {
            r = inputFactory().createXMLStreamReader(in);
            if (!toStartElement(r) || !SOAP_NS.equals(r.getNamespaceURI()) || !"Envelope".equals(r.getLocalName())) {
                throw new VimFaultException(method, VimFaultException.TRANSPORT, "HTTP " + status + ", not a SOAP envelope");
            }
            boolean inBody = false;
            r.next();
            while (!inBody) {
                if (!toStartElement(r)) {
                    throw new VimFaultException(method, VimFaultException.TRANSPORT, "HTTP " + status + ", no SOAP body");
                }
                if (SOAP_NS.equals(r.getNamespaceURI()) && "Body".equals(r.getLocalName())) {
                    inBody = true;
                    r.next();
                } else {
                    skipElement(r); // a SOAP header
                }
            }
            if (!toStartElement(r)) {
                throw new VimFaultException(method, VimFaultException.TRANSPORT, "HTTP " + status + ", empty SOAP body");
            }
            if (SOAP_NS.equals(r.getNamespaceURI()) && "Fault".equals(r.getLocalName())) {
                throw fault(method, r);
            }
            List<T> values = new ArrayList<>();
            if (reader == null) {
                return values;
            }
            Unmarshaller u = JAXB.createUnmarshaller();
            r.next(); // into the response element
            while (true) {
                int event = r.getEventType();
                if (event == XMLStreamConstants.START_ELEMENT) {
                    if ("returnval".equals(r.getLocalName())) {
                        values.add(reader.read(r, u)); // leaves the reader after its end
                    } else {
                        skipElement(r);
                    }
                } else if (event == XMLStreamConstants.END_ELEMENT || event == XMLStreamConstants.END_DOCUMENT) {
                    return values; // the response element's end
                } else {
                    r.next();
                }
            }
        } catch (XMLStreamException e) {
            throw new VimFaultException(method, VimFaultException.TRANSPORT,
                    "HTTP " + status + ", not a SOAP answer: " + e.getMessage(), e);
        } catch (JAXBException e) {
            throw new VimFaultException(method, "InvalidResponse", "cannot decode the answer: " + e, e);
        } finally {
            if (r != null) {
                try {
                    r.close();
                } catch (XMLStreamException e) {
                    // the stream is closed by the caller
                }
            }
        }
    }

    /** Answers come from the network: no DTDs, no external entities. The JDK's own factory, made per answer. */
    private static XMLInputFactory inputFactory() {
        XMLInputFactory f = XMLInputFactory.newDefaultFactory();
        f.setProperty(XMLInputFactory.SUPPORT_DTD, false);
        f.setProperty(XMLInputFactory.IS_SUPPORTING_EXTERNAL_ENTITIES, false);
        f.setProperty(XMLInputFactory.IS_NAMESPACE_AWARE, true);
        return f;
    }

    /** Moves to the next start element at or after the current event; false at an end element or the document's end. */
    static boolean toStartElement(XMLStreamReader r) throws XMLStreamException {
        while (true) {
            int e = r.getEventType();
            if (e == XMLStreamConstants.START_ELEMENT) {
                return true;
            }
            if (e == XMLStreamConstants.END_ELEMENT || e == XMLStreamConstants.END_DOCUMENT) {
                return false;
            }
            r.next();
        }
    }

    /** From a start element to the event after its end element. */
    static void skipElement(XMLStreamReader r) throws XMLStreamException {
        int depth = 0;
        while (true) {
            int e = r.next();
            if (e == XMLStreamConstants.START_ELEMENT) {
                depth++;
            } else if (e == XMLStreamConstants.END_ELEMENT) {
                if (depth-- == 0) {
                    r.next();
                    return;
                }
            } else if (e == XMLStreamConstants.END_DOCUMENT) {
                return;
            }
        }
    }

    /** The fault type is the xsi:type of the detail's element, or its name without "Fault". */
    private static VimFaultException fault(String method, XMLStreamReader r) throws XMLStreamException {
        String message = "";
        String type = "SystemError";
        r.next();
        while (toStartElement(r)) {
            String name = r.getLocalName();
            if ("faultstring".equals(name)) {
                message = r.getElementText().trim();
                r.next();
            } else if ("detail".equals(name)) {
                r.next();
                if (toStartElement(r)) {
                    String xsiType = r.getAttributeValue(XSI_NS, "type");
                    if (xsiType != null && !xsiType.isEmpty()) {
                        type = xsiType.contains(":") ? xsiType.substring(xsiType.indexOf(':') + 1) : xsiType;
                    } else {
                        String n = r.getLocalName();
                        type = n.endsWith("Fault") ? n.substring(0, n.length() - "Fault".length()) : n;
                    }
                    skipElement(r);
                }
                while (r.getEventType() != XMLStreamConstants.END_ELEMENT && r.getEventType() != XMLStreamConstants.END_DOCUMENT) {
                    if (r.getEventType() == XMLStreamConstants.START_ELEMENT) {
                        skipElement(r);
                    } else {
                        r.next();
                    }
                }
                r.next(); // past </detail>
            } else {
                skipElement(r);
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
}
