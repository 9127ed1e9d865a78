import type { FastifyServerOptions } from "fastify";

/**
 * Routes here check their input with zod, never with a route's JSON schema, so fastify's own
 * compilers (Ajv and fast-json-stringify, built when the app is made) are left out: they cost
 * more start-up time than anything else in fastify. A route given a JSON schema fails at
 * registration with this message instead of running unchecked.
 */
export const noJsonSchemaCompilers: FastifyServerOptions["schemaController"] = {
  compilersFactory: {
    buildValidator: () => {
      throw new Error("plangate validates with zod: no route takes a JSON schema");
    },
    buildSerializer: () => {
      throw new Error("plangate validates with zod: no route takes a JSON schema");
    },
  },
};
