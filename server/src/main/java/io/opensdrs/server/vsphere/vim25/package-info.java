/**
 * A small, typed client for the vSphere Web Services API (vim25 SOAP): the transport, the
 * connection and session ({@link io.opensdrs.server.vsphere.vim25.Vim25Client}), and the data
 * types of the managed objects the server uses, named and shaped as in the vim25 WSDL (namespace
 * {@code urn:vim25}) as JAXB classes, so the XML is produced by a marshaller, never by string
 * concatenation. The managed objects' methods are called from {@code vsphere.object}. The official
 * VMware Java SDK is not available from Maven Central; this package stays small so it can be
 * swapped for it behind {@code VSphereClient}.
 */
@XmlSchema(namespace = "urn:vim25", elementFormDefault = XmlNsForm.QUALIFIED,
        xmlns = {@XmlNs(prefix = "xsi", namespaceURI = "http://www.w3.org/2001/XMLSchema-instance"),
                 @XmlNs(prefix = "xsd", namespaceURI = "http://www.w3.org/2001/XMLSchema")})
@XmlAccessorType(XmlAccessType.FIELD)
package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAccessType;
import jakarta.xml.bind.annotation.XmlAccessorType;
import jakarta.xml.bind.annotation.XmlNs;
import jakarta.xml.bind.annotation.XmlNsForm;
import jakarta.xml.bind.annotation.XmlSchema;
