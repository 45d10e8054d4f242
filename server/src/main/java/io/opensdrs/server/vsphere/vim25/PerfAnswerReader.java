package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Unmarshaller;

import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/**
 * QueryPerf's answers in the csv format read straight from the stream: one {@code returnval}
 * ({@code PerfEntityMetricCSV}: {@code entity}, {@code sampleInfoCSV}, a {@code value} per series with
 * its {@code id} (counterId, instance) and comma-separated values). A period's answers for thousands
 * of disks are a hundred thousand series or more, and JAXB's per-element work on them would be most
 * of the server's CPU.
 * Any other {@code xsi:type} (the normal format) is left to JAXB, as before.
 */
public final class PerfAnswerReader {
    private PerfAnswerReader() {
    }

    /** At the returnval's start element; leaves the reader after its end element, as JAXB does. */
    public static PerformanceTypes.PerfEntityMetricBase read(XMLStreamReader r, Unmarshaller jaxb)
            throws XMLStreamException, JAXBException {
        String xsiType = r.getAttributeValue(VimSoapTransport.XSI_NS, "type");
        String type = xsiType == null ? "" : xsiType.substring(xsiType.indexOf(':') + 1);
        if (!"PerfEntityMetricCSV".equals(type)) {
            return jaxb.unmarshal(r, PerformanceTypes.PerfEntityMetricBase.class).getValue();
        }
        PerformanceTypes.PerfEntityMetricCSV m = new PerformanceTypes.PerfEntityMetricCSV();
        r.next();
        while (VimSoapTransport.toStartElement(r)) {
            switch (r.getLocalName()) {
                case "entity" -> {
                    String entityType = r.getAttributeValue(null, "type");
                    String value = r.getElementText().trim();
                    if (entityType != null && !value.isEmpty()) {
                        m.entity = new ManagedObjectReference(entityType, value);
                    }
                    r.next();
                }
                case "sampleInfoCSV" -> {
                    m.sampleInfoCSV = r.getElementText();
                    r.next();
                }
                case "value" -> m.value.add(series(r));
                default -> VimSoapTransport.skipElement(r);
            }
        }
        r.next(); // past </returnval>
        return m;
    }

    private static PerformanceTypes.PerfMetricSeriesCSV series(XMLStreamReader r) throws XMLStreamException, JAXBException {
        PerformanceTypes.PerfMetricSeriesCSV s = new PerformanceTypes.PerfMetricSeriesCSV();
        r.next();
        while (VimSoapTransport.toStartElement(r)) {
            switch (r.getLocalName()) {
                case "id" -> s.id = id(r);
                case "value" -> {
                    s.value = r.getElementText();
                    r.next();
                }
                default -> VimSoapTransport.skipElement(r);
            }
        }
        r.next(); // past </value>
        return s;
    }

    private static PerformanceTypes.PerfMetricId id(XMLStreamReader r) throws XMLStreamException, JAXBException {
        PerformanceTypes.PerfMetricId id = new PerformanceTypes.PerfMetricId();
        r.next();
        while (VimSoapTransport.toStartElement(r)) {
            switch (r.getLocalName()) {
                case "counterId" -> {
                    String text = r.getElementText().trim();
                    try {
                        id.counterId = Integer.parseInt(text);
                    } catch (NumberFormatException e) {
                        throw new jakarta.xml.bind.UnmarshalException("counterId '" + text + "' is not an integer");
                    }
                    r.next();
                }
                case "instance" -> {
                    id.instance = r.getElementText();
                    r.next();
                }
                default -> VimSoapTransport.skipElement(r);
            }
        }
        r.next(); // past </id>
        return id;
    }
}
