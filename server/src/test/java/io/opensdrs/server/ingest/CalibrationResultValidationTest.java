package io.opensdrs.server.ingest;

import io.opensdrs.shared.agent.v1.InjectorMode;
import io.opensdrs.shared.agent.v1.InjectorPoint;
import io.opensdrs.shared.agent.v1.InjectorResult;
import io.opensdrs.shared.agent.v1.WorkloadPoint;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A Romano calibration point (design_point set) is one level; its design point is checked field by field. */
class CalibrationResultValidationTest {

    static InjectorResult.Builder point(double oio, double readPct) {
        return InjectorResult.newBuilder().setDatastore("ds").setRunId("r").setStartedMs(1).setFinishedMs(2)
                .setMode(InjectorMode.REAL_IO).setIoSizeKb(64).setReadShare(readPct / 100).setRandomness(0.5).setValid(true)
                .setDesignPoint(WorkloadPoint.newBuilder().setOutstandingIos(oio).setIoSizeKb(64).setReadPct(readPct).setRandomPct(50))
                .addPoints(InjectorPoint.newBuilder().setTargetOio(4).setMeasuredOio(4).setIops(100).setMeanLatencyMs(40));
    }

    @Test
    void aCalibrationPointIsOneValidLevel() {
        assertThat(AgentMessageValidator.check(point(4, 25).build())).isEmpty();
        // without a design point, one level is no line (Pesto §5.1)
        assertThat(AgentMessageValidator.check(point(4, 25).clearDesignPoint().build()))
                .hasValue("injector_result.points must hold at least 2 points in a valid run");
        assertThat(AgentMessageValidator.check(point(4, 25).addPoints(InjectorPoint.newBuilder().setTargetOio(8)
                .setMeanLatencyMs(1)).build())).hasValueSatisfying(e -> assertThat(e).contains("exactly 1 point"));
    }

    @Test
    void aBadDesignPointIsRefusedNamingTheField() {
        assertThat(AgentMessageValidator.check(point(0, 25).build()))
                .hasValueSatisfying(e -> assertThat(e).startsWith("injector_result.design_point.outstanding_ios"));
        assertThat(AgentMessageValidator.check(point(4, 125).setReadShare(1).build()))
                .hasValueSatisfying(e -> assertThat(e).startsWith("injector_result.design_point.read_pct"));
    }
}
