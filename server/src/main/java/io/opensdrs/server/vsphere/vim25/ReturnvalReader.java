package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.JAXBException;
import jakarta.xml.bind.Unmarshaller;

import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamReader;

/** Reads one {@code returnval}: called at its start element, leaves the reader after its end element. */
@FunctionalInterface
public interface ReturnvalReader<T> {
    T read(XMLStreamReader r, Unmarshaller jaxb) throws XMLStreamException, JAXBException;
}
