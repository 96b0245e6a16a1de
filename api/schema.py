"""drf-spectacular's view of the token authentication (imported by ``ApiConfig.ready``)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class ApiTokenScheme(OpenApiAuthenticationExtension):
    target_class = "api.authentication.ApiTokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "Token <nyckel> (API-nyckel från TK)",
        }


#: The refusals any operation may answer, each a problem detail (``api.problems``).
PROBLEM_CODES = {
    "400": "invalid request or refused by the rules (problem details, RFC 9457)",
    "401": "not signed in, or an unknown or revoked token",
    "403": "no permission, or outside the token's scope",
    "404": "no such object",
    "405": "method not allowed",
    "406": "not acceptable",
    "409": "the same Idempotency-Key is being handled",
    "415": "unsupported content type",
    "422": "Idempotency-Key used for another request",
    "429": "too many requests",
}
PROBLEM_MEDIA = "application/problem+json"
PROBLEM_SCHEMA = {
    "type": "object",
    "properties": {
        "type": {"type": "string"},
        "title": {"type": "string"},
        "status": {"type": "integer"},
        "detail": {"type": "string"},
        "clause": {"type": "string"},
        "problems": {"type": "array", "items": {"type": "object"}},
        "errors": {
            "type": "object",
            "additionalProperties": {"type": "array", "items": {"type": "string"}},
        },
    },
    "required": ["type", "title", "status", "detail", "clause"],
}


#: ``?lang=``: the language of the answer's texts (``Accept-Language`` too); anything else 400.
LANG_PARAMETER = {
    "in": "query",
    "name": "lang",
    "required": False,
    "schema": {"type": "string", "enum": ["sv", "en"]},
    "description": "the language of the answer's texts (sv, en); else Accept-Language",
}


def problem_responses(result, generator, request, public):
    """drf-spectacular postprocessing hook: every operation under /api/ (the schema's own
    included) documents its refusals as ``application/problem+json`` with the Problem schema,
    and its ``lang`` parameter (the API checks both: ``api.views.ProblemsMixin``)."""
    result.setdefault("components", {}).setdefault("schemas", {})["Problem"] = PROBLEM_SCHEMA
    ref = {"schema": {"$ref": "#/components/schemas/Problem"}}
    for path, operations in result.get("paths", {}).items():
        if not path.startswith("/api/"):
            continue
        for operation in operations.values():
            parameters = operation.setdefault("parameters", [])
            if not any(p.get("name") == "lang" and p.get("in") == "query" for p in parameters):
                parameters.append(dict(LANG_PARAMETER))
            responses = operation.setdefault("responses", {})
            for code, description in PROBLEM_CODES.items():
                existing = responses.get(code)
                responses[code] = {
                    "description": (existing or {}).get("description") or description,
                    "content": {PROBLEM_MEDIA: ref},
                }
    return result
