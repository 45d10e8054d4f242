package io.opensdrs.server.migration;

import io.opensdrs.balance.Relocation;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.media.Schema;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import org.springframework.http.HttpStatus;
import org.springframework.validation.annotation.Validated;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.ResponseStatus;
import org.springframework.web.bind.annotation.RestController;

import java.security.Principal;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;

/** Recommendations: create (administrators, tests), apply, dismiss, cancel; migrations in flight. */
@RestController
@Validated
@RequestMapping("/api/v1")
@Tag(name = "migrations")
public class MigrationController {

    private static final String MOID = "[A-Za-z0-9_.:-]{1,64}";
    private static final String MOID_MESSAGE = "must be a managed object id (letters, digits, _ . : -; at most 64)";

    private final Recommendations recommendations;
    private final MigrationApplier applier;
    private final MigrationProperties properties;

    public MigrationController(Recommendations recommendations, MigrationApplier applier, MigrationProperties properties) {
        this.recommendations = recommendations;
        this.applier = applier;
        this.properties = properties;
    }

    public record MoveRequest(@NotBlank @Pattern(regexp = MOID, message = MOID_MESSAGE) String vmId,
                              @Size(max = 64) List<@NotNull Integer> diskKeys,
                              @NotBlank @Pattern(regexp = MOID, message = MOID_MESSAGE) String destinationDatastoreId,
                              Boolean homeOnly) {
    }

    public record CreateRequest(@NotBlank String reasonCode, @NotEmpty @Size(max = 1000) List<@Valid @NotNull MoveRequest> moves) {
    }

    public record ActionView(long id, String vmId, List<Integer> diskKeys, List<String> sourceDatastoreIds,
                             String destinationDatastoreId, String hostId, long sizeBytes, String state, String taskId, int attempt,
                             Integer progress, String faultType, String faultMessage, Instant createdAt, Instant startedAt,
                             Instant finishedAt, boolean homeOnly, List<Long> parentActionIds,
                             @Schema(description = "Why it has not started while queued in a recommendation being applied, as the"
                                     + " applier last found it: a parent not ended (or not applied), a limit, a backoff, space in flight")
                             String waitReason) {
        static ActionView of(MigrationAction a) {
            return new ActionView(a.id(), a.vmId(), a.diskKeys(), a.sourceDatastores(), a.destinationDatastore(), a.hostId(),
                    a.sizeBytes(), a.state().name(), a.taskId(), a.attempt(), a.progress(), a.faultType(), a.faultMessage(),
                    a.createdAt(), a.startedAt(), a.finishedAt(), a.homeOnly(), a.parentIds(), a.waitReason());
        }
    }

    @Schema(name = "RecommendationDetail")
    public record RecommendationView(long id, String clusterId, String reasonCode, String state, boolean cancelRequested,
                                     String faultType, String faultMessage, Instant createdAt, Instant updatedAt,
                                     List<ActionView> actions) {
    }

    public record MigrationsView(int maxPerDatastore, int maxPerHost, List<ActionView> inFlight,
                                 MigrationApplier.Observed maxObservedInFlight) {
    }

    @PostMapping("/clusters/{clusterId}/recommendations")
    @ResponseStatus(HttpStatus.CREATED)
    @Operation(summary = "Create a PENDING recommendation from moves (administrators and tests; the balancing engine uses the service)")
    public RecommendationView create(@PathVariable @Pattern(regexp = MOID, message = MOID_MESSAGE) String clusterId,
                                     @RequestBody @Valid CreateRequest body) {
        recommendations.checkTarget(clusterId, body.reasonCode());
        List<Relocation> relocations = new ArrayList<>();
        for (int i = 0; i < body.moves().size(); i++) {
            MoveRequest m = body.moves().get(i);
            relocations.add(recommendations.resolve(clusterId, "moves[" + i + "]", m.vmId(), m.diskKeys(), m.destinationDatastoreId(),
                    Boolean.TRUE.equals(m.homeOnly())));
        }
        return view(recommendations.create(clusterId, body.reasonCode(), relocations));
    }

    @GetMapping("/recommendations/{id}")
    public RecommendationView get(@PathVariable @Positive long id) {
        return view(recommendations.get(id));
    }

    @PostMapping("/recommendations/{id}/apply")
    @Operation(summary = "Apply: queue its storage vMotions, and those of its pending prerequisites (the recommendations"
            + " whose moves its moves wait for); 409 unless PENDING or without vCenter")
    public RecommendationView apply(@PathVariable @Positive long id, Principal user) {
        return view(recommendations.apply(id, by(user)));
    }

    @PostMapping("/recommendations/{id}/dismiss")
    public RecommendationView dismiss(@PathVariable @Positive long id, Principal user) {
        return view(recommendations.dismiss(id, "dismissed", "dismissed " + by(user)));
    }

    @PostMapping("/recommendations/{id}/cancel")
    @Operation(summary = "Cancel: queued actions are dropped, running vCenter tasks cancelled")
    public RecommendationView cancel(@PathVariable @Positive long id, Principal user) {
        return view(recommendations.cancel(id, by(user)));
    }

    /** Who, as the history names them: "by user admin". */
    private static String by(Principal user) {
        return user == null ? "by an administrator" : "by user " + user.getName();
    }

    @GetMapping("/migrations")
    @Operation(summary = "Actions not finished yet, the limits, and the largest numbers seen in flight at once")
    public MigrationsView migrations() {
        return new MigrationsView(properties.getMaxPerDatastore(), properties.getMaxPerHost(),
                recommendations.inFlight().stream().map(ActionView::of).toList(), applier.observed());
    }

    private RecommendationView view(Recommendation r) {
        return new RecommendationView(r.id(), r.clusterId(), r.reasonCode(), r.state().name(), r.cancelRequested(), r.faultType(),
                r.faultMessage(), r.createdAt(), r.updatedAt(), recommendations.actions(r.id()).stream().map(ActionView::of).toList());
    }
}
