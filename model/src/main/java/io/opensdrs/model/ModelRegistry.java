package io.opensdrs.model;

import io.opensdrs.model.basil.BasilModel;
import io.opensdrs.model.pesto.LqSlopeModel;
import io.opensdrs.model.queueing.QueueingNetworkModel;
import io.opensdrs.model.romano.RomanoModel;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.function.Supplier;

/** Model name → factory, so configuration can choose a datastore model by name. */
public final class ModelRegistry {

    private final Map<String, Supplier<? extends DatastoreModel>> factories = new LinkedHashMap<>();

    /** The four models of SPEC §3.1–3.4 under their registry names. */
    public static ModelRegistry withBuiltInModels() {
        ModelRegistry registry = new ModelRegistry();
        registry.register(BasilModel.NAME, BasilModel::new);
        registry.register(LqSlopeModel.NAME, LqSlopeModel::new);
        registry.register(RomanoModel.NAME, RomanoModel::new);
        registry.register(QueueingNetworkModel.NAME, QueueingNetworkModel::new);
        return registry;
    }

    public ModelRegistry register(String name, Supplier<? extends DatastoreModel> factory) {
        if (name == null || name.isBlank() || factory == null) {
            throw new IllegalArgumentException("a model needs a name and a factory");
        }
        if (factories.putIfAbsent(name, factory) != null) {
            throw new IllegalArgumentException("model " + name + " is already registered");
        }
        return this;
    }

    public Set<String> names() {
        return Collections.unmodifiableSet(factories.keySet());
    }

    /** A new, unfitted model. */
    public DatastoreModel create(String name) {
        Supplier<? extends DatastoreModel> factory = factories.get(name);
        if (factory == null) {
            throw new IllegalArgumentException("unknown model '" + name + "' (--model); known: " + String.join(", ", names()));
        }
        return factory.get();
    }
}
