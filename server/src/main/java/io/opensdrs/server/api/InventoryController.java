package io.opensdrs.server.api;

import io.opensdrs.server.inventory.InventorySync;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import jakarta.validation.constraints.Pattern;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/** Triggers an inventory sync with vCenter now. */
@RestController
@RequestMapping("/api/v1/inventory")
@Tag(name = "inventory")
public class InventoryController {

    private final InventorySync sync;

    public InventoryController(InventorySync sync) {
        this.sync = sync;
    }

    @PostMapping("/sync")
    @Operation(summary = "Run a full or incremental inventory sync now (409 when no vCenter source is configured)")
    public InventorySync.Result sync(@RequestParam(defaultValue = "full")
                                     @Pattern(regexp = "full|incremental", message = "must be full or incremental") String kind) {
        return "full".equals(kind) ? sync.fullSync() : sync.incrementalSync();
    }
}
