import { createId } from '@pipit/protocol';
import type { AiAction } from '../schema/definition';
import type { AppTemplate } from './app-template';
import {
  action,
  back,
  button,
  collection,
  component,
  definition,
  divider,
  field,
  fromRecord,
  heading,
  ids,
  recordScreens,
  screen,
  step,
  text,
  toast,
} from './builders';

const icon = { kind: 'emoji', emoji: '🍲', background: '#b4441c' } as const;

const DAL_INGREDIENTS = `- 250 g red lentils, rinsed
- 1 onion, finely chopped
- 3 cloves garlic, crushed
- A thumb of fresh ginger, grated
- 1 tsp ground cumin
- 1 tsp ground turmeric
- 400 g tin of chopped tomatoes
- 800 ml vegetable stock
- 2 tbsp oil
- Juice of half a lemon, salt, fresh coriander`;

const DAL_METHOD = `1. Soften the onion in the oil over a medium heat for about 8 minutes.
2. Add the garlic, ginger, cumin and turmeric and stir for a minute.
3. Tip in the lentils, tomatoes and stock. Simmer for 20–25 minutes, stirring now and then, until the lentils collapse.
4. Season with salt and the lemon juice. Scatter with coriander and serve with rice or flatbread.`;

const OATS_INGREDIENTS = `- 50 g rolled oats
- 120 ml milk (any kind)
- 2 tbsp plain yoghurt
- 1 tsp honey or maple syrup
- A pinch of cinnamon
- A handful of berries, to serve`;

const OATS_METHOD = `1. Stir the oats, milk, yoghurt, honey and cinnamon together in a jar.
2. Cover and chill overnight, or for at least 4 hours.
3. In the morning, loosen with a splash of milk and top with the berries.`;

export const recipeBook: AppTemplate = {
  id: 'recipe-book',
  name: 'Recipe book',
  summary:
    'Your recipes with ingredients, method, timings and favourites, a kitchen timer, and shopping lists written by AI.',
  icon,
  build() {
    const s = ids(
      'recipes',
      'favourites',
      'quick',
      'recipe',
      'addRecipe',
      'editRecipe',
      'overview',
      'lists',
      'list',
    );

    const recipes = collection(
      'Recipes',
      {
        name: field('Name', 'text', { required: true }),
        summary: field('In a sentence', 'text'),
        course: field('Course', 'select', {
          required: true,
          default: 'Dinner',
          options: ['Breakfast', 'Lunch', 'Dinner', 'Dessert', 'Snack', 'Baking'],
        }),
        diet: field('Diet', 'select', {
          default: 'Everything',
          options: ['Everything', 'Vegetarian', 'Vegan', 'Gluten-free'],
        }),
        servings: field('Servings', 'number', { required: true, default: 4 }),
        prep: field('Prep time (minutes)', 'number'),
        cook: field('Cook time (minutes)', 'number'),
        ingredients: field('Ingredients', 'longText', { required: true }),
        method: field('Method', 'longText', { required: true }),
        source: field('Source', 'url'),
        favourite: field('Favourite', 'boolean', { default: false }),
      },
      [
        {
          name: 'Weeknight tomato dal',
          summary: 'Red lentils simmered with tomato, garlic and warm spices.',
          course: 'Dinner',
          diet: 'Vegan',
          servings: 4,
          prep: 10,
          cook: 25,
          ingredients: DAL_INGREDIENTS,
          method: DAL_METHOD,
          favourite: false,
        },
        {
          name: 'Overnight oats',
          summary: 'Made in two minutes the night before, ready when you wake up.',
          course: 'Breakfast',
          diet: 'Vegetarian',
          servings: 1,
          prep: 5,
          cook: 0,
          ingredients: OATS_INGREDIENTS,
          method: OATS_METHOD,
          favourite: false,
        },
      ],
    );
    const f = recipes.f;

    // /docs/ai-actions' worked example: "Make shopping list" runs the AI action "Shopping list",
    // whose answer is checked against this collection's fields and saved as the visitor's record.
    const lists = collection('Shopping lists', {
      name: field('Name', 'text', { required: true }),
      items: field('Items', 'longText', { required: true }),
      servings: field('Servings', 'number'),
    });
    const l = lists.f;
    const shoppingList: AiAction = {
      id: createId(),
      name: 'Shopping list',
      prompt: `This recipe is called "${fromRecord(f.name)}" and serves ${fromRecord(f.servings)}.
Its ingredients are:
${fromRecord(f.ingredients)}

Write a shopping list for it. Combine duplicate ingredients, group the items by
supermarket aisle, put one item per line, and leave out water, salt and pepper.
Set name to "Shopping for ${fromRecord(f.name)}" and servings to ${fromRecord(f.servings)}.`,
      output: { kind: 'record', collectionId: lists.id },
      target: { kind: 'createRecord', collectionId: lists.id },
    };
    const makeList = action(
      'Make shopping list',
      step('runAi', { aiActionId: shoppingList.id }),
      toast('Shopping list added'),
    );
    const removeList = action(
      'Delete shopping list',
      step('deleteRecord', {}),
      toast('Shopping list deleted'),
      back(),
    );

    // Shows text beside the recipe and writes nothing.
    const swaps: AiAction = {
      id: createId(),
      name: 'Suggest swaps',
      prompt: `Suggest three ingredient swaps for the recipe "${fromRecord(f.name)}" that keep it tasty, for someone missing an ingredient or cooking for a different diet. One short line each.\n\nIngredients:\n${fromRecord(f.ingredients)}`,
      output: { kind: 'text' },
      target: { kind: 'component' },
    };

    const recipeFields = [
      f.name,
      f.summary,
      f.course,
      f.diet,
      f.servings,
      f.prep,
      f.cook,
      f.ingredients,
      f.method,
      f.source,
    ];
    const recipe = recordScreens(recipes, {
      noun: 'recipe',
      remove: 'Delete',
      opener: 'Open the new-recipe form',
      addTitle: 'New recipe',
      submit: 'Save recipe',
      added: 'Recipe saved',
      screens: { detail: s.recipe, add: s.addRecipe, edit: s.editRecipe },
      fields: recipeFields,
      addFields: recipeFields,
      editFields: [...recipeFields, f.favourite],
      addHint: 'Put one ingredient per line and number the steps of the method.',
    });
    const favourite = action(
      'Add to favourites',
      step('setField', { fieldId: f.favourite, value: 'true' }),
      toast('Saved to your favourites'),
    );

    const screens = [
      screen(s.recipes, 'Recipes', '🍲', [
        heading('Recipes', 1),
        text(
          'Everything you like to cook, in one place. Tap a recipe for the ingredients and method.',
        ),
        recipe.list({
          titleFieldId: f.name,
          subtitleFieldId: f.summary,
          sort: { fieldId: f.name, direction: 'asc' },
          emptyText: 'No recipes yet. Add the dish you make most often.',
        }),
        button('Add a recipe', recipe.goAdd),
      ]),
      screen(s.favourites, 'Favourites', '⭐', [
        heading('Favourites', 1),
        recipe.list({
          titleFieldId: f.name,
          subtitleFieldId: f.course,
          filter: { fieldId: f.favourite, op: 'isTrue', value: '' },
          sort: { fieldId: f.name, direction: 'asc' },
          emptyText: 'Tap “Add to favourites” on a recipe to keep it here.',
        }),
      ]),
      screen(s.quick, 'Quick', '⏱️', [
        heading('Quick to prepare', 1),
        text('Recipes with 15 minutes of prep or less, quickest first.'),
        recipe.list({
          titleFieldId: f.name,
          subtitleFieldId: f.prep,
          filter: { fieldId: f.prep, op: 'lessThan', value: '16' },
          sort: { fieldId: f.prep, direction: 'asc' },
          emptyText: 'Add prep times to your recipes to see the quick ones here.',
        }),
      ]),
      recipe.detailScreen('Recipe', '📖', [
        component('timer', { label: 'Kitchen timer', mode: 'countdown', seconds: 600 }),
        button('Add to favourites', favourite),
        recipe.editButton(),
        button('Make shopping list', makeList, 'secondary'),
        component('ai', { label: 'Suggest swaps', aiActionId: swaps.id }),
        divider(),
        component('link', {
          label: 'Converting cups, ounces and grams',
          url: 'https://en.wikipedia.org/wiki/Cooking_weights_and_measures',
        }),
        recipe.removeButton(),
      ]),
      screen(s.lists, 'Shopping', '🛒', [
        heading('Shopping lists', 1),
        text('Tap “Make shopping list” on a recipe, and AI writes its list here.'),
        component('list', {
          collectionId: lists.id,
          titleFieldId: l.name,
          subtitleFieldId: l.servings,
          emptyText: 'No shopping lists yet. Open a recipe and tap “Make shopping list”.',
          detailScreenId: s.list,
        }),
      ]),
      screen(s.list, 'Shopping list', '🧾', [
        component('detail', { fieldIds: [l.name, l.servings, l.items] }),
        button('Delete shopping list', removeList, 'secondary'),
      ]),
      recipe.addScreen,
      recipe.editScreen,
      screen(s.overview, 'Overview', '📊', [
        heading('Your cookbook', 1),
        component('stat', { label: 'Recipes', collectionId: recipes.id }),
        component('stat', {
          label: 'Average prep (minutes)',
          collectionId: recipes.id,
          aggregate: 'average',
          fieldId: f.prep,
        }),
        component('chart', {
          kind: 'pie',
          collectionId: recipes.id,
          labelFieldId: f.course,
          aggregate: 'count',
        }),
        component('chart', {
          kind: 'bar',
          collectionId: recipes.id,
          labelFieldId: f.diet,
          aggregate: 'count',
        }),
      ]),
    ];

    return definition({
      title: 'Recipe book',
      description:
        'A personal cookbook: ingredients, method, servings and timings for every dish, favourites and quick meals at a glance, and a kitchen timer on every recipe.',
      icon,
      tags: ['food', 'cooking', 'recipes'],
      preset: 'ember',
      screens,
      collections: [recipes, lists],
      actions: [
        recipe.goAdd,
        recipe.goEdit,
        favourite,
        recipe.remove,
        recipe.afterAdd,
        recipe.afterEdit,
        makeList,
        removeList,
      ],
      aiActions: [shoppingList, swaps],
    });
  },
};
