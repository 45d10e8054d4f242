package io.opensdrs.server.api;

import com.fasterxml.jackson.databind.JavaType;
import io.swagger.v3.core.converter.AnnotatedType;
import io.swagger.v3.oas.models.OpenAPI;
import io.swagger.v3.oas.models.media.Schema;
import jakarta.validation.constraints.NotNull;
import org.springdoc.core.customizers.OpenApiCustomizer;
import org.springdoc.core.customizers.PropertyCustomizer;
import org.springframework.stereotype.Component;

import java.lang.annotation.Annotation;
import java.lang.reflect.Type;
import java.util.Set;

/**
 * The API's views hold a number or flag that may be absent as a boxed type ({@code Double rSquared},
 * {@code Long bySpace}) and one that is always there as a primitive ({@code double qMax}): the OpenAPI
 * document says so (type {@code null} besides the number's), so the plugin's generated client makes
 * the absent case a {@code null} it must handle. A field marked {@code @NotNull} stays non-null, and so does
 * a list's element or a map's value (the element is resolved as the property too; the views' lists and maps hold no nulls).
 */
@Component
class NullableNumbers implements PropertyCustomizer, OpenApiCustomizer {

    private static final Set<Class<?>> BOXED = Set.of(Double.class, Float.class, Long.class, Integer.class, Short.class, Boolean.class);

    @Override
    @SuppressWarnings({"rawtypes", "unchecked"})
    public Schema customize(Schema property, AnnotatedType type) {
        if (property != null && BOXED.contains(raw(type.getType())) && !notNull(type.getCtxAnnotations())) {
            if (property.getTypes() != null && !property.getTypes().isEmpty()) {
                property.addType("null");
            } else {
                property.setNullable(true);
            }
        }
        return property;
    }

    @Override
    public void customise(OpenAPI openApi) {
        if (openApi.getComponents() != null && openApi.getComponents().getSchemas() != null) {
            openApi.getComponents().getSchemas().values().forEach(NullableNumbers::elementsNotNull);
        }
    }

    @SuppressWarnings("rawtypes")
    private static void elementsNotNull(Schema schema) {
        if (schema == null) {
            return;
        }
        if (schema.getProperties() != null) {
            ((java.util.Map<String, Schema>) schema.getProperties()).values().forEach(NullableNumbers::elementsNotNull);
        }
        for (Schema element : new Schema[] {schema.getItems(),
                schema.getAdditionalProperties() instanceof Schema a ? a : null}) {
            if (element != null) {
                if (element.getTypes() != null) {
                    element.getTypes().remove("null");
                }
                element.setNullable(null);
                elementsNotNull(element);
            }
        }
    }

    private static Class<?> raw(Type t) {
        return t instanceof JavaType j ? j.getRawClass() : t instanceof Class<?> c ? c : null;
    }

    private static boolean notNull(Annotation[] annotations) {
        if (annotations != null) {
            for (Annotation a : annotations) {
                if (a instanceof NotNull) {
                    return true;
                }
            }
        }
        return false;
    }
}
