package io.opensdrs.server.vsphere.object;

import io.opensdrs.server.vsphere.RecentTask;
import io.opensdrs.server.vsphere.TaskStatus;
import io.opensdrs.server.vsphere.vim25.ManagedObjectReference;
import io.opensdrs.server.vsphere.vim25.TaskTypes;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;

import javax.xml.XMLConstants;
import javax.xml.datatype.DatatypeFactory;
import javax.xml.parsers.DocumentBuilderFactory;
import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

/** A task's info as the server reads it: state, progress and the fault's type from its xsi:type. */
class TaskTest {

    @Test
    void aFailedTaskCarriesItsFaultTypeAndMessage() throws Exception {
        Document doc = DocumentBuilderFactory.newDefaultNSInstance().newDocumentBuilder().newDocument();
        Element fault = doc.createElementNS("urn:vim25", "fault");
        fault.setAttributeNS(XMLConstants.W3C_XML_SCHEMA_INSTANCE_NS_URI, "xsi:type", "vim25:InsufficientDiskSpace");
        TaskTypes.TaskInfo info = new TaskTypes.TaskInfo();
        info.state = "error";
        info.progress = 40;
        info.cancelable = false;
        info.error = new TaskTypes.LocalizedMethodFault();
        info.error.fault = fault;
        info.error.localizedMessage = "not enough space on datastore-2";

        TaskStatus s = Task.status("task-9", info);
        assertThat(s).isEqualTo(new TaskStatus("task-9", "error", 40, "InsufficientDiskSpace",
                "not enough space on datastore-2", false));
        assertThat(s.done()).isTrue();
        assertThat(s.succeeded()).isFalse();
    }

    @Test
    void aRunningTaskHasNoFault() {
        TaskTypes.TaskInfo info = new TaskTypes.TaskInfo();
        info.state = "running";
        info.progress = 10;
        info.cancelable = true;
        TaskStatus s = Task.status("task-3", info);
        assertThat(s.faultType()).isNull();
        assertThat(s.faultMessage()).isNull();
        assertThat(s.done()).isFalse();
    }

    @Test
    void aRecentTaskNamesItsEntityAndWhenVCenterQueuedIt() throws Exception {
        TaskTypes.TaskInfo info = new TaskTypes.TaskInfo();
        info.descriptionId = "VirtualMachine.relocate";
        info.entity = new ManagedObjectReference("VirtualMachine", "vm-42");
        info.state = "queued";
        info.queueTime = DatatypeFactory.newInstance().newXMLGregorianCalendar("2026-11-27T10:00:20Z");
        RecentTask r = Task.recent(new ManagedObjectReference("Task", "task-5"), info);
        assertThat(r).isEqualTo(new RecentTask("task-5", "VirtualMachine.relocate", "vm-42", "queued",
                Instant.parse("2026-11-27T10:00:20Z")));

        info.entity = null;
        info.queueTime = null;
        RecentTask bare = Task.recent(new ManagedObjectReference("Task", "task-6"), info);
        assertThat(bare.entityId()).isNull();
        assertThat(bare.queueTime()).isNull();
    }
}
