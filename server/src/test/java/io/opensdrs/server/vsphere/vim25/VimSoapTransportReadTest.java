package io.opensdrs.server.vsphere.vim25;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Answers read from the stream as vCenter (and govmomi's simulator) writes them: returnvals, faults, garbage. */
class VimSoapTransportReadTest {

    private static final String HEAD = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<soapenv:Envelope"
            + " xmlns:soapenv=\"http://schemas.xmlsoap.org/soap/envelope/\" xmlns:xsd=\"http://www.w3.org/2001/XMLSchema\""
            + " xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\"><soapenv:Body>";
    private static final String TAIL = "</soapenv:Body></soapenv:Envelope>";

    private static <T> List<T> read(String body, ReturnvalReader<T> reader) throws VimFaultException {
        return VimSoapTransport.read("QueryPerf", 200, new ByteArrayInputStream((HEAD + body + TAIL).getBytes(StandardCharsets.UTF_8)),
                reader);
    }

    @Test
    void queryPerfCsvAnswersAreReadSeriesBySeries() throws Exception {
        // the simulator's own spelling: the xsi prefix declared on the returnval itself
        String body = "<QueryPerfResponse xmlns=\"urn:vim25\">"
                + "<returnval xmlns:XMLSchema-instance=\"http://www.w3.org/2001/XMLSchema-instance\""
                + " XMLSchema-instance:type=\"PerfEntityMetricCSV\"><entity type=\"VirtualMachine\">vm-42</entity>"
                + "<sampleInfoCSV>20,2026-11-27T10:00:20Z,20,2026-11-27T10:00:40Z</sampleInfoCSV>"
                + "<value><id><counterId>171</counterId><instance>scsi0:0</instance></id><value>120,130</value></value>\n"
                + "<value><id><counterId>175</counterId><instance>scsi0:1</instance></id><value>0,-1</value></value>"
                + "<future>ignored</future></returnval>"
                + "<returnval xsi:type=\"PerfEntityMetricCSV\"><entity type=\"HostSystem\">host-7</entity><sampleInfoCSV></sampleInfoCSV></returnval>"
                + "<returnval xsi:type=\"PerfEntityMetric\"><entity type=\"VirtualMachine\">vm-43</entity>"
                + "<sampleInfo><timestamp>2026-11-27T10:00:20Z</timestamp><interval>20</interval></sampleInfo></returnval>"
                + "</QueryPerfResponse>";
        List<PerformanceTypes.PerfEntityMetricBase> answers = read(body, PerfAnswerReader::read);
        assertThat(answers).hasSize(3);
        PerformanceTypes.PerfEntityMetricCSV vm = (PerformanceTypes.PerfEntityMetricCSV) answers.get(0);
        assertThat(vm.entity).isEqualTo(new ManagedObjectReference("VirtualMachine", "vm-42"));
        assertThat(vm.sampleInfoCSV).isEqualTo("20,2026-11-27T10:00:20Z,20,2026-11-27T10:00:40Z");
        assertThat(vm.value).hasSize(2);
        assertThat(vm.value.get(0).id.counterId).isEqualTo(171);
        assertThat(vm.value.get(0).id.instance).isEqualTo("scsi0:0");
        assertThat(vm.value.get(0).value).isEqualTo("120,130");
        assertThat(vm.value.get(1).id.instance).isEqualTo("scsi0:1");
        assertThat(vm.value.get(1).value).isEqualTo("0,-1");
        PerformanceTypes.PerfEntityMetricCSV host = (PerformanceTypes.PerfEntityMetricCSV) answers.get(1);
        assertThat(host.entity.value()).isEqualTo("host-7");
        assertThat(host.sampleInfoCSV).isEmpty();
        assertThat(host.value).isEmpty();
        // the normal format is JAXB's, as before: PerfCsv refuses it by name
        assertThat(answers.get(2)).isInstanceOf(PerformanceTypes.PerfEntityMetric.class);
        assertThat(answers.get(2).entity.value()).isEqualTo("vm-43");
    }

    @Test
    void otherReturnvalsAreUnmarshalledByJaxbFromTheStream() throws Exception {
        String body = "<FindAllResponse xmlns=\"urn:vim25\"><returnval type=\"Folder\">group-d1</returnval>"
                + "<returnval type=\"Datastore\">datastore-9</returnval></FindAllResponse>";
        List<ManagedObjectReference> refs = read(body, (r, u) -> u.unmarshal(r, ManagedObjectReference.class).getValue());
        assertThat(refs).containsExactly(new ManagedObjectReference("Folder", "group-d1"),
                new ManagedObjectReference("Datastore", "datastore-9"));
        assertThat(read("<LogoutResponse xmlns=\"urn:vim25\"></LogoutResponse>", null)).isEmpty();
    }

    @Test
    void aSoapFaultBecomesAVimFaultOfItsDetailsType() {
        String body = "<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>A specified parameter was not"
                + " correct: querySpec.metricId</faultstring><detail><InvalidArgumentFault xmlns=\"urn:vim25\""
                + " xsi:type=\"InvalidArgument\"><invalidProperty>querySpec.metricId</invalidProperty></InvalidArgumentFault>"
                + "</detail></soapenv:Fault>";
        assertThatThrownBy(() -> read(body, PerfAnswerReader::read)).isInstanceOfSatisfying(VimFaultException.class, e -> {
            assertThat(e.faultType()).isEqualTo("InvalidArgument");
            assertThat(e.getMessage()).contains("querySpec.metricId");
        });
        String untyped = "<soapenv:Fault><faultcode>ServerFaultCode</faultcode><faultstring>gone</faultstring><detail>"
                + "<ManagedObjectNotFoundFault xmlns=\"urn:vim25\"><obj type=\"VirtualMachine\">vm-1</obj>"
                + "</ManagedObjectNotFoundFault></detail></soapenv:Fault>";
        assertThatThrownBy(() -> read(untyped, null)).isInstanceOfSatisfying(VimFaultException.class,
                e -> assertThat(e.faultType()).isEqualTo("ManagedObjectNotFound"));
    }

    @Test
    void whatIsNoSoapAnswerIsATransportFault() {
        assertThatThrownBy(() -> VimSoapTransport.read("QueryPerf", 502,
                new ByteArrayInputStream("<html>Bad gateway".getBytes(StandardCharsets.UTF_8)), null))
                .isInstanceOfSatisfying(VimFaultException.class, e -> assertThat(e.isTransport()).isTrue());
        assertThatThrownBy(() -> read("<QueryPerfResponse xmlns=\"urn:vim25\"><returnval xsi:type=\"PerfEntityMetricCSV\">"
                + "<value><id><counterId>x</counterId></id></value></returnval></QueryPerfResponse>", PerfAnswerReader::read))
                .isInstanceOfSatisfying(VimFaultException.class, e -> {
                    assertThat(e.faultType()).isEqualTo("InvalidResponse");
                    assertThat(e.getMessage()).contains("counterId 'x'");
                });
    }
}
