/**
 * A small, typed client for the vSphere Web Services API (vim25 SOAP): just the managed
 * objects and data types the server uses — sessions, the PropertyCollector (with
 * ContainerView and WaitForUpdatesEx), RelocateVM_Task and task tracking, and the
 * ExtensionManager. Data types are JAXB classes named and shaped as in the vim25 WSDL
 * (namespace {@code urn:vim25}), so the XML is produced by a marshaller, never by string
 * concatenation. The official VMware Java SDK is not available from Maven Central; this
 * package stays small so it can be swapped for it behind {@code VSphereClient}.
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
