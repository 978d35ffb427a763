import { ERROR_STATUS, type ApiErrorBody } from '@pipit/protocol';
import { ServiceError } from '../service-error';

/**
 * A product error (docs/product/errors.md) an endpoint answers with; anything else becomes
 * `internal`.
 */
export class ApiError extends ServiceError {}

/** The HTTP status a product error answers with, by its code. */
export function errorStatus(error: ServiceError): number {
  return ERROR_STATUS[error.code];
}

/** The JSON body a product error answers with. */
export function errorBody(error: ServiceError): ApiErrorBody {
  return { error: { code: error.code, message: error.message, ...error.extra } };
}
