package io.opensdrs.server.vsphere.vim25;

import jakarta.xml.bind.annotation.XmlType;

/** A label and a summary, as vCenter describes a device, an extension and more. */
@XmlType(name = "Description")
public class Description {
    public String label;
    public String summary;

    public Description() {
    }

    public Description(String label, String summary) {
        this.label = label;
        this.summary = summary;
    }
}
