package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlAttribute;
import jakarta.xml.bind.annotation.XmlType;
import jakarta.xml.bind.annotation.XmlValue;

import java.util.Objects;

/** A reference to a managed object on the server: its type and its id ({@code vm-42}). */
@XmlType(name = "ManagedObjectReference")
public final class ManagedObjectReference {
    @XmlAttribute(name = "type", namespace = "")
    private String type;
    @XmlValue
    private String value;

    public ManagedObjectReference() {
    }

    public ManagedObjectReference(String type, String value) {
        this.type = Objects.requireNonNull(type, "type");
        this.value = Objects.requireNonNull(value, "value");
    }

    public String type() {
        return type;
    }

    public String value() {
        return value;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ManagedObjectReference m && Objects.equals(type, m.type) && Objects.equals(value, m.value);
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, value);
    }

    @Override
    public String toString() {
        return type + ":" + value;
    }
}
