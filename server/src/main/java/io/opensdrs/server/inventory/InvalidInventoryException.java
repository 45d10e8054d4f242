package io.opensdrs.server.inventory;

/** vCenter answered something the server refuses to store; the message names the field. */
public class InvalidInventoryException extends RuntimeException {
    public InvalidInventoryException(String message) {
        super(message);
    }
}
