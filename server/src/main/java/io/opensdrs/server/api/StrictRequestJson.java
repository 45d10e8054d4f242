package io.opensdrs.server.api;

import com.fasterxml.jackson.annotation.JsonSetter;
import com.fasterxml.jackson.annotation.Nulls;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.http.converter.json.MappingJackson2HttpMessageConverter;

/**
 * Request bodies are read as they are written, with no conversion that would change what a client
 * meant (SPEC §5: bad input is a 400 naming the field and changes nothing): a string is not read as a
 * number ({@code "90"}), a fraction not cut to an integer ({@code 80.9}), a number not read as a flag
 * ({@code 1}) or as a name ({@code 123}); a key given twice and a {@code null} inside a list or map are
 * refused. Only the HTTP converter's mapper is strict: the one the server reads its own stored JSON
 * with keeps Spring's defaults.
 */
@Configuration
class StrictRequestJson {

    @Bean
    MappingJackson2HttpMessageConverter strictJsonConverter(ObjectMapper base) {
        return new MappingJackson2HttpMessageConverter(strict(base.copy()));
    }

    static ObjectMapper strict(ObjectMapper m) {
        m.enable(JsonParser.Feature.STRICT_DUPLICATE_DETECTION);
        m.disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT);
        m.enable(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        m.enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES);
        m.setDefaultSetterInfo(JsonSetter.Value.forContentNulls(Nulls.FAIL));
        for (LogicalType number : new LogicalType[]{LogicalType.Integer, LogicalType.Float}) {
            m.coercionConfigFor(number).setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        m.coercionConfigFor(LogicalType.Integer).setCoercion(CoercionInputShape.Float, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Boolean).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.String, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        m.coercionConfigFor(LogicalType.Textual).setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Float, CoercionAction.Fail)
                .setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail);
        for (LogicalType container : new LogicalType[]{LogicalType.Collection, LogicalType.Map, LogicalType.POJO, LogicalType.Array}) {
            m.coercionConfigFor(container).setCoercion(CoercionInputShape.EmptyString, CoercionAction.Fail);
        }
        return m;
    }
}
