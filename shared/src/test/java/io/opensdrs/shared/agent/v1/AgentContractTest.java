package io.opensdrs.shared.agent.v1;

import com.google.protobuf.ByteString;
import com.google.protobuf.Descriptors.Descriptor;
import com.google.protobuf.Descriptors.FieldDescriptor;
import com.google.protobuf.Descriptors.OneofDescriptor;
import com.google.protobuf.Message;
import com.google.protobuf.util.JsonFormat;
import io.grpc.ManagedChannel;
import io.grpc.MethodDescriptor.MethodType;
import io.grpc.Server;
import io.grpc.inprocess.InProcessChannelBuilder;
import io.grpc.inprocess.InProcessServerBuilder;
import io.grpc.stub.StreamObserver;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every message of the contracts in this module (agent↔server, and the vSCSI service between
 * agents and their IO source) survives the binary and the JSON encoding with every field set to
 * a non-default value, and each variant of every oneof is covered.
 */
class AgentContractTest {

    @TestFactory
    Stream<DynamicTest> everyMessageRoundTrips() {
        List<Descriptor> types = new ArrayList<>(AgentContract.getDescriptor().getMessageTypes());
        assertThat(types).hasSizeGreaterThanOrEqualTo(20);
        types.addAll(io.opensdrs.shared.vscsi.v1.VScsiContract.getDescriptor().getMessageTypes());
        List<DynamicTest> tests = new ArrayList<>();
        for (Descriptor type : types) {
            int variants = Math.max(1, type.getRealOneofs().stream().mapToInt(o -> o.getFieldCount()).max().orElse(1));
            for (int v = 0; v < variants; v++) {
                int variant = v;
                tests.add(DynamicTest.dynamicTest(type.getFullName() + (variants > 1 ? " #" + v : ""),
                        () -> roundTrip(type, variant)));
            }
        }
        return tests.stream();
    }

    private static void roundTrip(Descriptor type, int variant) throws Exception {
        Message original = populated(type, variant, 0);
        int expectedFields = (int) type.getFields().stream().filter(f -> f.getRealContainingOneof() == null).count()
                + type.getRealOneofs().size();
        assertThat(original.getAllFields()).as("every field set on %s", type.getName()).hasSize(expectedFields);

        Message parsed = original.getParserForType().parseFrom(original.toByteArray());
        assertThat(parsed).isEqualTo(original);

        String json = JsonFormat.printer().print(original);
        Message.Builder fromJson = original.newBuilderForType();
        JsonFormat.parser().merge(json, fromJson);
        assertThat(fromJson.build()).isEqualTo(original);
    }

    /** A message of the given type with every field (and the chosen oneof variant) non-default. */
    private static Message populated(Descriptor type, int variant, int depth) {
        Message.Builder b = builderFor(type);
        for (FieldDescriptor f : type.getFields()) {
            OneofDescriptor oneof = f.getRealContainingOneof();
            if (oneof != null && oneof.getFields().indexOf(f) != variant % oneof.getFieldCount()) {
                continue;
            }
            if (f.isRepeated()) {
                b.addRepeatedField(f, value(b, f, 1, depth));
                b.addRepeatedField(f, value(b, f, 2, depth));
            } else {
                b.setField(f, value(b, f, 1, depth));
            }
        }
        return b.build();
    }

    private static Message.Builder builderFor(Descriptor type) {
        try {
            Class<?> cls = Class.forName(type.getFile().getOptions().getJavaPackage() + "." + type.getName());
            return (Message.Builder) cls.getMethod("newBuilder").invoke(null);
        } catch (ReflectiveOperationException e) {
            throw new AssertionError("no generated class for " + type.getFullName(), e);
        }
    }

    private static Object value(Message.Builder owner, FieldDescriptor f, int n, int depth) {
        switch (f.getJavaType()) {
            case INT:
                return f.getNumber() * 1000 + n;
            case LONG:
                return (long) f.getNumber() * 1_000_000_007L + n;
            case FLOAT:
                return f.getNumber() + n / 8.0f;
            case DOUBLE:
                return f.getNumber() + n / 3.0;
            case BOOLEAN:
                return true;
            case STRING:
                return f.getName() + "-" + n + "-é";
            case BYTE_STRING:
                return ByteString.copyFromUtf8(f.getName() + n);
            case ENUM:
                // The last value is never the zero (unspecified) default.
                var values = f.getEnumType().getValues();
                return values.get(values.size() - 1);
            case MESSAGE:
                assertThat(depth).as("message nesting depth").isLessThan(8);
                return populated(f.getMessageType(), n, depth + 1);
            default:
                throw new AssertionError("unhandled field type " + f.getJavaType());
        }
    }

    @Test
    void serviceHasRegisterAndABidirectionalSession() {
        assertThat(AgentServiceGrpc.getRegisterMethod().getType()).isEqualTo(MethodType.UNARY);
        assertThat(AgentServiceGrpc.getSessionMethod().getType()).isEqualTo(MethodType.BIDI_STREAMING);
        assertThat(AgentServiceGrpc.getServiceDescriptor().getName()).isEqualTo("opensdrs.agent.v1.AgentService");
        assertThat(ContractVersion.CONTRACT_MINOR_VERSION.getNumber()).isEqualTo(3); // 3: HostDatastoreLoads
    }

    @Test
    void registrationCrossesARealChannel() throws Exception {
        String name = InProcessServerBuilder.generateName();
        Server server = InProcessServerBuilder.forName(name).directExecutor()
                .addService(new AgentServiceGrpc.AgentServiceImplBase() {
                    @Override
                    public void register(RegisterRequest req, StreamObserver<RegisterResponse> out) {
                        out.onNext(RegisterResponse.newBuilder()
                                .setAccepted(req.getDatastoresCount() > 0)
                                .setServerContractMinor(ContractVersion.CONTRACT_MINOR_VERSION.getNumber())
                                .setStatsWindowSeconds(20)
                                .build());
                        out.onCompleted();
                    }
                }).build().start();
        ManagedChannel channel = InProcessChannelBuilder.forName(name).directExecutor().build();
        try {
            RegisterRequest req = (RegisterRequest) populated(RegisterRequest.getDescriptor(), 0, 0);
            RegisterResponse resp = AgentServiceGrpc.newBlockingStub(channel).register(req);
            assertThat(resp.getAccepted()).isTrue();
            assertThat(resp.getStatsWindowSeconds()).isEqualTo(20);
        } finally {
            channel.shutdownNow();
            server.shutdownNow().awaitTermination(5, TimeUnit.SECONDS);
        }
    }

    @Test
    void everyEnumStartsWithAnUnspecifiedZero() {
        var enums = new ArrayList<>(AgentContract.getDescriptor().getEnumTypes());
        enums.addAll(io.opensdrs.shared.vscsi.v1.VScsiContract.getDescriptor().getEnumTypes());
        for (var e : enums) {
            assertThat(e.findValueByNumber(0).getName()).as(e.getName()).endsWith("UNSPECIFIED");
        }
    }
}
