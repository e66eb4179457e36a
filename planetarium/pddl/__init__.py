"""Reading PDDL: tolerant extraction from model output, domain and problem parsing, writing."""

from .domain import Action, Atom, DomainDef, parse_domain
from .extract import Extraction, extract_problem, find_problem
from .problem import Problem, read_problem
from .writer import atom_to_pddl, problem_to_pddl

__all__ = [
    "Action", "Atom", "DomainDef", "Extraction", "Problem", "atom_to_pddl", "extract_problem",
    "find_problem", "parse_domain",
    "problem_to_pddl", "read_problem",
]
