package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlElement;
import jakarta.xml.bind.annotation.XmlType;

/**
 * The request body of every method that takes nothing but the object it is called on. The other
 * requests sit beside the data types of their object, each named after its method
 * ({@code <Method>RequestType} in the WSDL); the marshaller wraps a request in an element named
 * after the method. Every request starts with {@code _this}, the object it is called on.
 */
public final class VimRequests {
    private VimRequests() {
    }

    /** A request with nothing but the object it is called on. */
    @XmlType(name = "ThisOnlyRequestType")
    public static class ThisOnly {
        @XmlElement(name = "_this", required = true)
        public ManagedObjectReference self;

        public ThisOnly() {
        }

        public ThisOnly(ManagedObjectReference self) {
            this.self = self;
        }
    }
}
